package cluster

import (
	"context"
	"fmt"
	"time"

	"kubeloop/api"
	"kubeloop/client"
)

// WaitForDefaultServiceAccount waits until namespace ns has its "default"
// ServiceAccount. The serviceaccount controller makes it a moment after the
// namespace, and until then the ServiceAccount admission plugin refuses
// pods there (it looks again for about a second and a half, which a loaded
// machine can outlast). Code that creates pods in a namespace it has just
// made calls this first; it returns at once when Start did not enable the
// plugin.
func (c *Cluster) WaitForDefaultServiceAccount(ctx context.Context, ns string) error {
	if !c.opts.serviceAccountAdmission() {
		return nil
	}
	return WaitForServiceAccount(ctx, c.Client, ns, api.DefaultServiceAccountName)
}

// WaitForServiceAccount waits until the ServiceAccount ns/name exists, for
// clients of a cluster started elsewhere (`kubeloop up` in another
// process), where WaitForDefaultServiceAccount cannot tell whether the
// plugin is on.
func WaitForServiceAccount(ctx context.Context, cl *client.Client, ns, name string) error {
	accounts := client.For[*api.ServiceAccount](cl).Namespace(ns)
	for {
		_, err := accounts.Get(ctx, name, client.GetOptions{})
		if err == nil {
			return nil
		}
		if !api.IsNotFound(err) {
			return fmt.Errorf("cluster: ServiceAccount %s/%s: %w", ns, name, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster: ServiceAccount %s/%s never appeared: %w", ns, name, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}
