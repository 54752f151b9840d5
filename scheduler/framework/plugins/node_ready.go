package plugins

import (
	"context"

	"kubeloop/api"
	"kubeloop/scheduler/framework"
)

// ErrReasonNotReady is the reason for a node whose Ready condition is not
// True.
const ErrReasonNotReady = "node(s) were not ready"

// NodeReady rejects nodes whose Ready condition is not True.
//
// Kubernetes has no such plugin any more: the node lifecycle controller
// turns conditions into taints (node.kubernetes.io/not-ready and
// .../unreachable, TaintNodesByCondition) and TaintToleration rejects the
// node. kubeloop's node lifecycle controller only taints unreachable nodes
// with NoExecute, so this filter reads the condition directly, and, as the
// taint would, lets through pods that tolerate the matching NoSchedule
// taint. The reason string is the one of Kubernetes' old CheckNodeCondition
// predicate.
type NodeReady struct{}

// Name names the plugin.
func (NodeReady) Name() string { return "NodeReady" }

// Filter rejects a node that is not Ready.
func (NodeReady) Filter(_ context.Context, pod *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	status := api.ConditionUnknown
	for _, c := range nodeInfo.Node().Status.Conditions {
		if c.Type == api.NodeReady {
			status = c.Status
			break
		}
	}
	if status == api.ConditionTrue {
		return nil
	}
	// False means the kubelet says not ready; Unknown (or no condition)
	// means nobody has heard from it: the two taints Kubernetes would set.
	key := api.TaintNodeNotReady
	if status == api.ConditionUnknown {
		key = api.TaintNodeUnreachable
	}
	if tolerates(pod.Pod.Spec.Tolerations, api.Taint{Key: key, Effect: api.TaintEffectNoSchedule}) {
		return nil
	}
	return framework.NewStatus(framework.Unschedulable, ErrReasonNotReady)
}
