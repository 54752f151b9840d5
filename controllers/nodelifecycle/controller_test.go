package nodelifecycle

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
)

// TestLostNodeIsMarkedUnknownTaintedAndEmptied stops a kubelet: its node
// goes Unknown and gets the unreachable taint within the grace period, its
// pods are evicted after the timeout (except one that tolerates the taint
// forever), and when the kubelet returns the taint goes and the evicted pod
// finishes terminating.
func TestLostNodeIsMarkedUnknownTaintedAndEmptied(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	lostNode := uniqueNodeName("node-lost")
	testCluster.StartComponent(cluster.Component{Name: "kubelet-" + lostNode, Run: func(ctx context.Context, c *cluster.Cluster) error {
		return runKubelet(ctx, c, lostNode)
	}})
	t.Cleanup(func() { _ = testCluster.StopComponent("kubelet-" + lostNode) })
	createPod(t, ns, "evictable", lostNode)
	createPod(t, ns, "tolerant", lostNode, api.Toleration{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute})
	require.Eventually(t, func() bool { return podRunning(getPod(t, ns, "evictable")) && podRunning(getPod(t, ns, "tolerant")) }, waitFor, tick)
	require.Nil(t, unreachableTaint(getNode(t, lostNode)), "a heartbeating node is not tainted")

	require.NoError(t, testCluster.StopComponent("kubelet-"+lostNode))

	require.Eventually(t, func() bool {
		n := getNode(t, lostNode)
		return unreachableTaint(n) != nil && condition(n, api.NodeReady).Status == api.ConditionUnknown
	}, waitFor, tick)
	n := getNode(t, lostNode)
	ready := condition(n, api.NodeReady)
	require.Equal(t, ReasonNodeStatusUnknown, ready.Reason)
	require.Equal(t, MessageNodeStatusUnknown, ready.Message)
	require.Equal(t, api.ConditionUnknown, condition(n, api.NodeMemoryPressure).Status)
	require.NotNil(t, unreachableTaint(n).TimeAdded)
	require.Eventually(t, func() bool { return hasEvent(t, "default", lostNode, EventNodeNotReady) }, waitFor, tick)

	require.Eventually(t, func() bool { return getPod(t, ns, "evictable").DeletionTimestamp != nil }, waitFor, tick)
	require.Nil(t, getPod(t, ns, "tolerant").DeletionTimestamp, "a pod tolerating the taint without tolerationSeconds stays")
	require.Eventually(t, func() bool { return hasEvent(t, ns, "evictable", EventTaintManagerEviction) }, waitFor, tick)

	startKubelet(t, lostNode)
	require.Eventually(t, func() bool {
		n := getNode(t, lostNode)
		return unreachableTaint(n) == nil && condition(n, api.NodeReady).Status == api.ConditionTrue
	}, waitFor, tick)
	require.Eventually(t, func() bool { return getPod(t, ns, "evictable") == nil }, waitFor, tick,
		"the returning kubelet finishes the eviction")
	require.Eventually(t, func() bool { return podRunning(getPod(t, ns, "tolerant")) }, waitFor, tick,
		"the tolerant pod runs again in the new runtime")
}

func TestNodeThatNeverPostedStatusIsMarkedNeverUpdated(t *testing.T) {
	silent := uniqueNodeName("node-silent")
	_, err := client.For[*api.Node](testCluster.Client).Create(clustertest.Context(t), &api.Node{ObjectMeta: api.ObjectMeta{Name: silent}}, client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return unreachableTaint(getNode(t, silent)) != nil }, waitFor, tick)
	ready := condition(getNode(t, silent), api.NodeReady)
	require.NotNil(t, ready)
	require.Equal(t, api.ConditionUnknown, ready.Status)
	require.Equal(t, ReasonNodeStatusNeverUpdated, ready.Reason)
}

func TestHeartbeatingNodeIsNeverTainted(t *testing.T) {
	healthy := uniqueNodeName("node-healthy")
	startKubelet(t, healthy)
	leases := client.For[*api.Lease](testCluster.Client).Namespace(api.NamespaceNodeLease)
	var start time.Time
	require.Eventually(t, func() bool {
		l, err := leases.Get(clustertest.Context(t), healthy, client.GetOptions{})
		if err != nil {
			return false
		}
		start = l.Spec.RenewTime.Time
		return true
	}, waitFor, tick)
	// Wait, by the lease's own clock, for three grace periods to pass.
	require.Eventually(t, func() bool {
		l, err := leases.Get(clustertest.Context(t), healthy, client.GetOptions{})
		require.NoError(t, err)
		n := getNode(t, healthy)
		require.Nil(t, unreachableTaint(n), "a heartbeating node is never tainted")
		require.Equal(t, api.ConditionTrue, condition(n, api.NodeReady).Status)
		return l.Spec.RenewTime.Sub(start) > 3*gracePeriod
	}, waitFor, 50*time.Millisecond)
}

func TestTolerationMatching(t *testing.T) {
	secs := int64(7)
	cases := []struct {
		name string
		tol  api.Toleration
		want bool
	}{
		{"exact key", api.Toleration{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute}, true},
		{"any effect", api.Toleration{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists}, true},
		{"everything", api.Toleration{Operator: api.TolerationOpExists}, true},
		{"other key", api.Toleration{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists}, false},
		{"NoSchedule only", api.Toleration{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}, false},
		{"equal empty value", api.Toleration{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpEqual, TolerationSeconds: &secs}, true},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, toleratesUnreachable(tc.tol), tc.name)
	}
	nc := &Controller{opts: Options{PodEvictionTimeout: time.Minute}}
	d, evict := nc.evictionTimeout(&api.Pod{Spec: api.PodSpec{Tolerations: []api.Toleration{cases[5].tol}}})
	require.True(t, evict)
	require.Equal(t, 7*time.Second, d)
	d, evict = nc.evictionTimeout(&api.Pod{})
	require.True(t, evict)
	require.Equal(t, time.Minute, d)
}
