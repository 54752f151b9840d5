package kubelet

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

func getLease(t *testing.T, name string) *api.Lease {
	t.Helper()
	l, err := client.For[*api.Lease](testCluster.Client).Namespace(api.NamespaceNodeLease).Get(clustertest.Context(t), name, client.GetOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	require.NoError(t, err)
	return l
}

func TestNodeRegistersWithCapacityLabelsAndReadyCondition(t *testing.T) {
	opts := fastOptions("node-register")
	opts.CPU, opts.Memory, opts.Pods = "8", "16Gi", 50
	opts.Labels = map[string]string{"topology.kubernetes.io/zone": "zone-a"}
	startKubelet(t, opts)
	n := getNode(t, "node-register")

	require.Equal(t, "node-register", n.Labels[LabelHostname])
	require.Equal(t, "linux", n.Labels[LabelOS])
	require.Equal(t, "zone-a", n.Labels["topology.kubernetes.io/zone"])
	want := api.ResourceList{api.ResourceCPU: "8", api.ResourceMemory: "16Gi", api.ResourcePods: "50"}
	require.Equal(t, want, n.Status.Capacity)
	require.Equal(t, want, n.Status.Allocatable)
	require.Equal(t, KubeletVersion, n.Status.NodeInfo.KubeletVersion)
	require.Contains(t, n.Status.Addresses, api.NodeAddress{Type: api.NodeHostName, Address: "node-register"})
	require.NotEmpty(t, n.Spec.PodCIDR)
	var ready *api.NodeCondition
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == api.NodeReady {
			ready = &n.Status.Conditions[i]
		}
	}
	require.NotNil(t, ready)
	require.Equal(t, "KubeletReady", ready.Reason)
	require.False(t, ready.LastHeartbeatTime.IsZero())
}

func TestLeaseIsRenewed(t *testing.T) {
	startKubelet(t, fastOptions("node-lease"))
	var first *api.Lease
	require.Eventually(t, func() bool { first = getLease(t, "node-lease"); return first != nil }, waitFor, tick)
	require.Equal(t, "node-lease", *first.Spec.HolderIdentity)
	require.Equal(t, int32(LeaseDurationSeconds), *first.Spec.LeaseDurationSeconds)
	require.Len(t, first.OwnerReferences, 1)
	require.Equal(t, "Node", first.OwnerReferences[0].Kind)
	require.Eventually(t, func() bool {
		return getLease(t, "node-lease").Spec.RenewTime.After(first.Spec.RenewTime.Time)
	}, waitFor, tick)
}

func TestKubeletRestoresReadyWhenMarkedUnknown(t *testing.T) {
	startKubelet(t, fastOptions("node-unknown"))
	nodes := client.For[*api.Node](testCluster.Client)
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		n := getNode(t, "node-unknown")
		for i := range n.Status.Conditions {
			if n.Status.Conditions[i].Type == api.NodeReady {
				n.Status.Conditions[i].Status = api.ConditionUnknown
				n.Status.Conditions[i].Reason = "NodeStatusUnknown"
			}
		}
		_, err := nodes.UpdateStatus(clustertest.Context(t), n, client.UpdateOptions{})
		return err
	}))
	require.Eventually(t, func() bool { return nodeReady(getNode(t, "node-unknown")) }, waitFor, tick)
}

func TestRestartedKubeletAdoptsItsNode(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	opts := fastOptions("node-again")
	startKubeletUntil := func() func() {
		cl, err := testCluster.NewClient("kubelet-again")
		require.NoError(t, err)
		kl, err := New(cl, opts)
		require.NoError(t, err)
		ctx, cancel := testCtxCancel(t)
		done := make(chan struct{})
		go func() { defer close(done); _ = kl.Run(ctx) }()
		return func() { cancel(); <-done }
	}
	stop := startKubeletUntil()
	require.Eventually(t, func() bool { return nodeReady(getNode(t, "node-again")) }, waitFor, tick)
	uid := getNode(t, "node-again").UID
	stop()
	stop = startKubeletUntil()
	defer stop()
	createPod(t, newPod(ns, "after-restart", "node-again", nil))
	require.Eventually(t, func() bool { return podReady(getPod(t, ns, "after-restart")) }, waitFor, tick)
	require.Equal(t, uid, getNode(t, "node-again").UID, "the restarted kubelet kept the Node object")
}

func TestManyKubeletsInOneProcess(t *testing.T) {
	const n = 50
	ns := clustertest.Namespace(t, testCluster)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			opts := Options{NodeName: fmt.Sprintf("many-%02d", i), PodCIDR: fmt.Sprintf("10.210.%d.0/24", i), PLEGPeriod: 200 * time.Millisecond}
			startKubelet(t, opts)
		}()
	}
	wg.Wait()
	for i := range n {
		require.True(t, nodeReady(getNode(t, fmt.Sprintf("many-%02d", i))))
	}
	// A pod on every fifth node runs, with an address from that node's range.
	for i := 0; i < n; i += 5 {
		createPod(t, newPod(ns, fmt.Sprintf("p%02d", i), fmt.Sprintf("many-%02d", i), nil))
	}
	for i := 0; i < n; i += 5 {
		name := fmt.Sprintf("p%02d", i)
		require.Eventually(t, func() bool { return podReady(getPod(t, ns, name)) }, waitFor, tick, name)
		require.Contains(t, getPod(t, ns, name).Status.PodIP, fmt.Sprintf("10.210.%d.", i))
	}
	leases, err := client.For[*api.Lease](testCluster.Client).Namespace(api.NamespaceNodeLease).List(clustertest.Context(t), client.ListOptions{})
	require.NoError(t, err)
	count := 0
	for _, l := range leases.Items {
		if len(l.Name) > 5 && l.Name[:5] == "many-" {
			count++
		}
	}
	require.Equal(t, n, count)
}
