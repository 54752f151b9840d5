package plugins

import (
	"context"

	"kubeloop/scheduler/framework"
)

// The reasons of NodeResourcesFit, one per resource short on the node.
const (
	ErrReasonTooManyPods        = "Too many pods"
	ErrReasonInsufficientCPU    = "Insufficient cpu"
	ErrReasonInsufficientMemory = "Insufficient memory"
)

// NodeResourcesFit filters out nodes whose allocatable, minus the requests
// of the pods already assigned (assumed ones included), cannot hold the
// pod's requests, and scores the rest with the LeastAllocated strategy
// (least_allocated.go). Kubernetes: pkg/scheduler/framework/plugins/
// noderesources/fit.go (Filter, fitsRequest) with ScoringStrategy
// LeastAllocated, its default.
type NodeResourcesFit struct{}

// Name is the plugin's name in Kubernetes.
func (NodeResourcesFit) Name() string { return "NodeResourcesFit" }

// Filter reports every resource that does not fit, so one node can count
// towards several reasons ("2 Insufficient cpu, 2 Insufficient memory").
func (NodeResourcesFit) Filter(_ context.Context, pod *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	reasons := insufficientResources(pod.Requests, nodeInfo)
	if len(reasons) == 0 {
		return nil
	}
	return framework.NewStatus(framework.Unschedulable, reasons...)
}

// insufficientResources checks pods first, then cpu and memory; a resource
// the pod does not request always fits, even on a node that is full.
func insufficientResources(req framework.Resource, n *framework.NodeInfo) []string {
	var reasons []string
	if len(n.Pods)+1 > n.Allocatable.AllowedPodNumber {
		reasons = append(reasons, ErrReasonTooManyPods)
	}
	if req.MilliCPU > 0 && req.MilliCPU > n.Allocatable.MilliCPU-n.Requested.MilliCPU {
		reasons = append(reasons, ErrReasonInsufficientCPU)
	}
	if req.Memory > 0 && req.Memory > n.Allocatable.Memory-n.Requested.Memory {
		reasons = append(reasons, ErrReasonInsufficientMemory)
	}
	return reasons
}
