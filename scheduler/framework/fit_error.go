package framework

import (
	"fmt"
	"sort"
	"strings"

	"kubeloop/api"
)

// Diagnosis records why each rejected node was rejected.
type Diagnosis struct {
	// NodeToStatus maps a node name to the status that rejected it.
	NodeToStatus map[string]*Status
	// UnschedulablePlugins names the plugins that rejected some node.
	UnschedulablePlugins map[string]bool
}

// FitError is the error of a scheduling attempt that found no node.
// Kubernetes: pkg/scheduler/framework/types.go, FitError.
type FitError struct {
	Pod         *api.Pod
	NumAllNodes int
	Diagnosis   Diagnosis
}

// Error is Kubernetes' message: "0/3 nodes are available: 1 node(s) were
// unschedulable, 2 Insufficient cpu." — every reason of every rejected node
// counted, each "<count> <reason>" string sorted as text (so "10 x" comes
// before "2 y", as in Kubernetes), joined with ", ", ending with a period.
//
// Kubernetes appends what PostFilter (preemption) found, e.g. " preemption:
// 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
// kubeloop has no preemption, so the message ends after the filter reasons.
func (f *FitError) Error() string {
	msg := fmt.Sprintf("0/%d nodes are available:", f.NumAllNodes)
	counts := map[string]int{}
	for _, st := range f.Diagnosis.NodeToStatus {
		for _, r := range st.Reasons() {
			counts[r]++
		}
	}
	histogram := make([]string, 0, len(counts))
	for reason, n := range counts {
		histogram = append(histogram, fmt.Sprintf("%d %s", n, reason))
	}
	sort.Strings(histogram)
	if len(histogram) > 0 {
		msg += " " + strings.Join(histogram, ", ") + "."
	}
	return msg
}
