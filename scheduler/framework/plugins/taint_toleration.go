package plugins

import (
	"context"
	"log/slog"

	"kubeloop/api"
	"kubeloop/scheduler/framework"
)

// ErrReasonUntoleratedTaint is the reason for a node with a taint the pod
// does not tolerate. Kubernetes used to print the taint ("had untolerated
// taint {key: value}"); since 1.29 it prints this fixed text, so reasons
// aggregate across nodes and taints do not leak into pod status, and logs
// the taint instead. We follow v1.37.
const ErrReasonUntoleratedTaint = "node(s) had untolerated taint(s)"

// TaintToleration rejects a node with a NoSchedule or NoExecute taint that
// the pod does not tolerate. PreferNoSchedule taints only matter for
// scoring in Kubernetes; kubeloop does not score them.
// Kubernetes: pkg/scheduler/framework/plugins/tainttoleration.
type TaintToleration struct{}

// Name is the plugin's name in Kubernetes.
func (TaintToleration) Name() string { return "TaintToleration" }

// Filter rejects the node at its first untolerated taint.
func (TaintToleration) Filter(ctx context.Context, pod *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	node := nodeInfo.Node()
	for _, taint := range node.Spec.Taints {
		if taint.Effect != api.TaintEffectNoSchedule && taint.Effect != api.TaintEffectNoExecute {
			continue
		}
		if tolerates(pod.Pod.Spec.Tolerations, taint) {
			continue
		}
		slog.DebugContext(ctx, "node had untolerated taint", "component", "scheduler",
			"pod", pod.Pod.Namespace+"/"+pod.Pod.Name, "node", node.Name, "taint", taint.Key+"="+taint.Value+":"+string(taint.Effect))
		return framework.NewStatus(framework.Unschedulable, ErrReasonUntoleratedTaint)
	}
	return nil
}
