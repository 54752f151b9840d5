package plugins

import (
	"context"

	"kubeloop/scheduler/framework"
)

// Score is NodeResourcesFit's LeastAllocated strategy: for cpu and memory
// (weight 1 each), the share of the node left free once the pod is placed,
// 0..100, averaged. Emptier nodes score higher, which spreads pods. It
// counts non-zero requests, so pods that request nothing still spread.
// Kubernetes: noderesources/least_allocated.go, leastResourceScorer, and
// resource_allocation.go (requests with useRequested=false).
func (NodeResourcesFit) Score(_ context.Context, pod *framework.PodInfo, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	podReq := pod.NonZeroRequests
	requested := []int64{
		nodeInfo.NonZeroRequested.MilliCPU + podReq.MilliCPU,
		nodeInfo.NonZeroRequested.Memory + podReq.Memory,
	}
	allocatable := []int64{nodeInfo.Allocatable.MilliCPU, nodeInfo.Allocatable.Memory}
	var score, weights int64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		score += leastRequestedScore(requested[i], allocatable[i])
		weights++
	}
	if weights == 0 {
		return 0, nil
	}
	return score / weights, nil
}

// ScoreExtensions: the scores are already 0..100.
func (NodeResourcesFit) ScoreExtensions() framework.ScoreExtensions { return nil }

// leastRequestedScore is (capacity-requested)/capacity on the 0..100 scale,
// 0 when the node would be over-committed.
func leastRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 || requested > capacity {
		return 0
	}
	return (capacity - requested) * framework.MaxNodeScore / capacity
}
