package plugins

import (
	"context"

	"kubeloop/api"
	"kubeloop/scheduler/framework"
)

// ErrReasonUnschedulable is the reason for a cordoned node.
const ErrReasonUnschedulable = "node(s) were unschedulable"

// NodeUnschedulable rejects nodes with spec.unschedulable (kubectl cordon),
// unless the pod tolerates the node.kubernetes.io/unschedulable:NoSchedule
// taint that stands for it (DaemonSet pods do).
// Kubernetes: pkg/scheduler/framework/plugins/nodeunschedulable.
type NodeUnschedulable struct{}

// Name is the plugin's name in Kubernetes.
func (NodeUnschedulable) Name() string { return "NodeUnschedulable" }

// Filter rejects a cordoned node.
func (NodeUnschedulable) Filter(_ context.Context, pod *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	if !nodeInfo.Node().Spec.Unschedulable {
		return nil
	}
	taint := api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}
	if tolerates(pod.Pod.Spec.Tolerations, taint) {
		return nil
	}
	return framework.NewStatus(framework.Unschedulable, ErrReasonUnschedulable)
}
