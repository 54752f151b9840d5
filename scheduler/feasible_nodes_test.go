package scheduler

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/scheduler/framework"
	"kubeloop/scheduler/framework/plugins"
)

// Kubernetes' numbers: small clusters in full, then 50 % less a point per
// 125 nodes, never under 5 % nor under 100 nodes.
func TestNumFeasibleNodesToFind(t *testing.T) {
	for _, c := range []struct{ percentage, nodes, want int32 }{
		{0, 20, 20}, {0, 99, 99}, {0, 100, 100}, {0, 200, 100}, {0, 300, 144},
		{0, 1000, 420}, {0, 5000, 500}, {0, 10000, 500}, {100, 1000, 1000}, {30, 1000, 300}, {5, 1000, 100},
	} {
		require.Equal(t, c.want, numFeasibleNodesToFind(c.percentage, c.nodes), "%d%% of %d nodes", c.percentage, c.nodes)
	}
}

func readyNodeInfos(t *testing.T, n int, fits func(i int) bool) []*framework.NodeInfo {
	var out []*framework.NodeInfo
	for i := range n {
		cpu := "32"
		if !fits(i) {
			cpu = "0"
		}
		res := api.ResourceList{api.ResourceCPU: api.Quantity(cpu), api.ResourceMemory: "128Gi", api.ResourcePods: "110"}
		node := &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("n%04d", i)}}
		node.Status.Capacity, node.Status.Allocatable = res, res
		node.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}
		ni := framework.NewNodeInfo()
		ni.SetNode(node)
		out = append(out, ni)
	}
	return out
}

// A cycle over 300 nodes stops after 144 fitting ones and the next starts
// where it stopped, so the nodes take turns; nodes that do not fit are
// passed over and counted in the diagnosis; a pod nothing fits sees every
// node.
func TestACycleStopsAtEnoughFeasibleNodesAndTheNextGoesOn(t *testing.T) {
	fwk, err := framework.NewFramework(plugins.Default())
	require.NoError(t, err)
	s := &Scheduler{fwk: fwk}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "p"}}
	pod.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{api.ResourceCPU: "100m"}}}}
	pi := framework.NewPodInfo(pod)

	every10thFull := readyNodeInfos(t, 300, func(i int) bool { return i%10 != 9 })
	feasible, diag, err := s.findNodesThatFitPod(context.Background(), pi, every10thFull)
	require.NoError(t, err)
	require.Len(t, feasible, 144)
	require.Equal(t, "n0000", feasible[0].Node().Name)
	require.Len(t, diag.NodeToStatus, 15, "n0009 … n0149: the full nodes met on the way")
	require.Equal(t, 144+15, s.nextStartNodeIndex, "144 fitting and 15 full nodes checked")

	feasible, _, err = s.findNodesThatFitPod(context.Background(), pi, every10thFull)
	require.NoError(t, err)
	require.Equal(t, "n0160", feasible[0].Node().Name, "the next cycle goes on where the last stopped")
	require.Len(t, feasible, 144)
	require.Equal(t, "n0018", feasible[len(feasible)-1].Node().Name, "and wraps around")

	allFull := readyNodeInfos(t, 300, func(int) bool { return false })
	feasible, diag, err = s.findNodesThatFitPod(context.Background(), pi, allFull)
	require.NoError(t, err)
	require.Empty(t, feasible)
	require.Len(t, diag.NodeToStatus, 300, "a pod that fits nowhere is told about every node")
}
