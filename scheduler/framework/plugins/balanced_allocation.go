package plugins

import (
	"context"
	"math"

	"kubeloop/scheduler/framework"
)

// BalancedAllocation prefers nodes whose cpu and memory would be used in
// the same proportion once the pod is placed, so neither runs out while the
// other sits idle: score = (1 - |cpuFraction - memFraction| / 2) * 100 (the
// standard deviation of two fractions). It counts actual requests, and
// gives every node 0 for a pod that requests nothing (Kubernetes skips
// such best-effort pods since 1.32 so they do not pile onto one node).
// Kubernetes: noderesources/balanced_allocation.go, balancedResourceScorer.
type BalancedAllocation struct{}

// Name is the plugin's name in Kubernetes.
func (BalancedAllocation) Name() string { return "NodeResourcesBalancedAllocation" }

// Score computes the balance after placing the pod.
func (BalancedAllocation) Score(_ context.Context, pod *framework.PodInfo, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	podReq := pod.Requests
	if podReq.MilliCPU == 0 && podReq.Memory == 0 {
		return 0, nil
	}
	requested := []int64{
		nodeInfo.Requested.MilliCPU + podReq.MilliCPU,
		nodeInfo.Requested.Memory + podReq.Memory,
	}
	allocatable := []int64{nodeInfo.Allocatable.MilliCPU, nodeInfo.Allocatable.Memory}
	var fractions []float64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		fractions = append(fractions, math.Min(float64(requested[i])/float64(allocatable[i]), 1))
	}
	std := 0.0
	if len(fractions) == 2 {
		std = math.Abs(fractions[0]-fractions[1]) / 2
	}
	return int64((1 - std) * float64(framework.MaxNodeScore)), nil
}

// ScoreExtensions: the scores are already 0..100.
func (BalancedAllocation) ScoreExtensions() framework.ScoreExtensions { return nil }
