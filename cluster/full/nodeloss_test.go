package full

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/controllers/nodelifecycle"
	"kubeloop/controllers/podgc"
)

// TestLostNodesPodsAreRecreatedOnTheOthers stops one kubelet: the node
// lifecycle controller marks its node Unknown, taints it unreachable and
// evicts its pods, and the ReplicaSet replaces them on the live nodes. The
// evicted pods stay Terminating while the Node exists; once it is deleted,
// the pod GC removes them after its quarantine.
func TestLostNodesPodsAreRecreatedOnTheOthers(t *testing.T) {
	c := startCluster(t, Options{Nodes: 3, Kubelet: fastKubelet(), NodeLifecycle: &nodelifecycle.Options{
		NodeMonitorPeriod:      100 * time.Millisecond,
		NodeMonitorGracePeriod: 2 * time.Second,
		PodEvictionTimeout:     time.Second,
	}, PodGC: &podgc.Options{GCCheckPeriod: 100 * time.Millisecond, QuarantineTime: time.Second}})
	ns := newNamespace(t, c)
	createReplicaSet(t, c, replicaSet(ns, "web", 6, "100m", "64Mi"))
	var byNode map[string]int
	require.Eventually(t, func() bool {
		byNode = readyPodsByNode(listPods(t, c, ns, "app=web"))
		return sum(byNode) == 6
	}, waitFor, tick)
	lost := NodeName(0)
	require.Positive(t, byNode[lost], "the lost node runs pods (%v)", byNode)
	var lostPods []string
	for _, p := range listPods(t, c, ns, "app=web") {
		if p.Spec.NodeName == lost {
			lostPods = append(lostPods, p.Name)
		}
	}

	require.NoError(t, c.StopComponent(KubeletComponentName(lost)))

	nodes := client.For[*api.Node](c.Client)
	require.Eventually(t, func() bool {
		n, err := nodes.Get(testCtx(t), lost, client.GetOptions{})
		require.NoError(t, err)
		return nodeCondition(n, api.NodeReady) == api.ConditionUnknown && hasTaint(n, api.TaintNodeUnreachable, api.TaintEffectNoExecute)
	}, waitFor, tick, "the silent node goes Ready=Unknown with the unreachable:NoExecute taint")

	require.Eventually(t, func() bool {
		pods := listPods(t, c, ns, "app=web")
		live := readyPodsByNode(pods)
		if live[lost] != 0 || sum(live) != 6 {
			return false
		}
		for _, p := range pods {
			if p.Spec.NodeName == lost && p.DeletionTimestamp == nil {
				return false
			}
		}
		return true
	}, waitFor, tick, "the lost node's pods are evicted and 6 run on the other nodes")

	// Without their kubelet nothing confirms the deletion: the evicted
	// pods stay Terminating while their Node exists, as in Kubernetes (the
	// pod GC leaves pods of existing nodes alone unless they are tainted
	// out-of-service).
	for _, p := range listPods(t, c, ns, "app=web") {
		if p.Spec.NodeName == lost {
			assert.Contains(t, lostPods, p.Name)
			assert.NotNil(t, p.DeletionTimestamp)
		}
	}
	rs := getReplicaSet(t, c, ns, "web")
	require.Eventually(t, func() bool {
		rs = getReplicaSet(t, c, ns, "web")
		return rs.Status.ReadyReplicas == 6 && rs.Status.Replicas == 6
	}, waitFor, tick, "the ReplicaSet counts 6 ready replicas again (got %+v)", rs.Status)

	// The node is gone for good: deleting it lets the pod GC force-delete
	// what was left on it, so nothing stays Terminating for ever.
	require.NoError(t, nodes.Delete(testCtx(t), lost, api.DeleteOptions{}))
	require.Eventually(t, func() bool {
		for _, p := range listPods(t, c, ns, "app=web") {
			if p.Spec.NodeName == lost {
				return false
			}
		}
		return true
	}, waitFor, tick, "the deleted node's evicted pods are collected")
	require.Len(t, listPods(t, c, ns, "app=web"), 6, "only the replacements are left")
}

func hasTaint(n *api.Node, key string, effect api.TaintEffect) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == key && t.Effect == effect {
			return true
		}
	}
	return false
}
