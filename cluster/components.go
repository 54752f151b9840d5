package cluster

import (
	"context"
)

// Components says which loops run beside the apiserver. The zero value runs
// none: an API-only cluster. Package cluster/full builds the standard set
// (controller manager, scheduler, simulated nodes); it lives apart so that
// the tests of those very components can start a cluster without importing
// themselves.
type Components struct {
	// Extra components, started in order, each on its own goroutine.
	Extra []Component
}

// Component is one loop started by the cluster.
type Component struct {
	Name string
	Run  func(ctx context.Context, c *Cluster) error
	// ServiceAccounts says the component gives every namespace its
	// "default" ServiceAccount (a controller manager running the
	// serviceaccount controller). Start then enables the ServiceAccount
	// admission plugin by default (see Options.admissionPlugins).
	ServiceAccounts bool
}

func (c *Cluster) startComponents(_ context.Context, comps Components) error {
	for _, comp := range comps.Extra {
		c.StartComponent(comp)
	}
	return nil
}

// StartComponent starts one more component; tests use it to start a fresh
// controller manager or kubelet after StopComponent.
func (c *Cluster) StartComponent(comp Component) {
	c.run(comp.Name, func(ctx context.Context) {
		if err := comp.Run(ctx, c); err != nil && ctx.Err() == nil {
			c.log.Error("component stopped", "component", comp.Name, "err", err)
		}
	})
}
