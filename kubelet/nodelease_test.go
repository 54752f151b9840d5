package kubelet

import (
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

// A lease someone else changed makes the kubelet's next update conflict:
// it reads the lease again and renews that, keeping the other writer's
// change (Kubernetes' retryUpdateLease); a deleted lease is created again.
func TestLeaseRenewalRereadsAfterAConflictAndRecreatesADeletedLease(t *testing.T) {
	startKubelet(t, fastOptions("node-lease-conflict"))
	leases := client.For[*api.Lease](testCluster.Client).Namespace(api.NamespaceNodeLease)
	ctx := clustertest.Context(t)

	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		l := getLease(t, "node-lease-conflict")
		l.Annotations = map[string]string{"example.com/touched": "yes"}
		_, err := leases.Update(ctx, l, client.UpdateOptions{})
		return err
	}))
	touched := getLease(t, "node-lease-conflict")
	require.Eventually(t, func() bool {
		l := getLease(t, "node-lease-conflict")
		return l.Spec.RenewTime.After(touched.Spec.RenewTime.Time) && l.Annotations["example.com/touched"] == "yes"
	}, waitFor, tick, "renewed on top of the other writer's change")

	gone := getLease(t, "node-lease-conflict")
	require.NoError(t, leases.Delete(ctx, "node-lease-conflict", api.DeleteOptions{}))
	require.Eventually(t, func() bool {
		l := getLease(t, "node-lease-conflict")
		return l != nil && l.UID != gone.UID && *l.Spec.HolderIdentity == "node-lease-conflict"
	}, waitFor, tick, "created again")
}
