package plugins

import (
	"context"
	"slices"
	"strconv"

	"kubeloop/api"
	"kubeloop/scheduler/framework"
)

// ErrReasonNodeAffinity is the reason for a node that fails the pod's
// nodeSelector or required node affinity.
const ErrReasonNodeAffinity = "node(s) didn't match Pod's node affinity/selector"

// NodeAffinity rejects nodes that do not match spec.nodeSelector (every
// label equal) and spec.affinity.nodeAffinity's required terms (any term
// whose expressions all match). Kubernetes:
// pkg/scheduler/framework/plugins/nodeaffinity (Filter) and
// staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity.
type NodeAffinity struct{}

// Name is the plugin's name in Kubernetes.
func (NodeAffinity) Name() string { return "NodeAffinity" }

// Filter checks the selector and the required terms.
func (NodeAffinity) Filter(_ context.Context, pod *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	if !requiredNodeAffinityMatches(pod.Pod, nodeInfo.Node()) {
		return framework.NewStatus(framework.Unschedulable, ErrReasonNodeAffinity)
	}
	return nil
}

func requiredNodeAffinityMatches(pod *api.Pod, node *api.Node) bool {
	for k, v := range pod.Spec.NodeSelector {
		if got, ok := node.Labels[k]; !ok || got != v {
			return false
		}
	}
	aff := pod.Spec.Affinity
	if aff == nil || aff.NodeAffinity == nil || aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return true
	}
	// The terms are ORed; no term at all matches no node.
	for _, term := range aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		if termMatches(term, node) {
			return true
		}
	}
	return false
}

// termMatches ANDs a term's requirements. An empty term matches nothing,
// as in Kubernetes, so that a half-written term cannot select every node.
func termMatches(term api.NodeSelectorTerm, node *api.Node) bool {
	if len(term.MatchExpressions) == 0 && len(term.MatchFields) == 0 {
		return false
	}
	for _, r := range term.MatchExpressions {
		if !requirementMatches(r, node.Labels) {
			return false
		}
	}
	// metadata.name is the only field Kubernetes supports here.
	fields := map[string]string{"metadata.name": node.Name}
	for _, r := range term.MatchFields {
		if r.Key != "metadata.name" || !requirementMatches(r, fields) {
			return false
		}
	}
	return true
}

// requirementMatches applies one requirement. A requirement that is
// malformed (Gt with two values, a value that is not a number) matches no
// node rather than every node.
func requirementMatches(r api.NodeSelectorRequirement, labels map[string]string) bool {
	v, ok := labels[r.Key]
	switch r.Operator {
	case api.NodeSelectorOpIn:
		return ok && slices.Contains(r.Values, v)
	case api.NodeSelectorOpNotIn:
		return !ok || !slices.Contains(r.Values, v)
	case api.NodeSelectorOpExists:
		return ok
	case api.NodeSelectorOpDoesNotExist:
		return !ok
	case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
		if !ok || len(r.Values) != 1 {
			return false
		}
		want, err := strconv.ParseInt(r.Values[0], 10, 64)
		if err != nil {
			return false
		}
		got, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		if r.Operator == api.NodeSelectorOpGt {
			return got > want
		}
		return got < want
	}
	return false
}
