// Package plugins holds the scheduler's filter and score plugins and the
// registry that lists them (registry.go, Default). Each plugin is one file
// and answers one question about one node: may this pod run here (Filter),
// and how good a place is it (Score).
//
// # On the spine
//
// Spine arrow 7 of "scale to 5", reading-path step 8: the scheduler (package scheduler) runs these,
// through framework.Framework, for every pending pod.
//
// # The plugins and their Kubernetes counterparts (release v1.37.2)
//
//   - NodeUnschedulable: pkg/scheduler/framework/plugins/nodeunschedulable.
//   - NodeReady: none today; the node lifecycle controller's not-ready and
//     unreachable taints plus TaintToleration do this in Kubernetes (see
//     node_ready.go).
//   - TaintToleration (Filter only): plugins/tainttoleration; the
//     toleration rules of k8s.io/api/core/v1/toleration.go.
//   - NodeAffinity (nodeSelector and required terms only):
//     plugins/nodeaffinity and component-helpers/scheduling/corev1/
//     nodeaffinity.
//   - NodeResourcesFit (Filter + LeastAllocated Score):
//     plugins/noderesources/fit.go, least_allocated.go,
//     resource_allocation.go.
//   - NodeResourcesBalancedAllocation: noderesources/balanced_allocation.go.
//
// # What we simplify
//
// No NodeName, NodePorts, volume, pod affinity, topology spread, image
// locality or DRA plugins; no preferred node affinity and no
// PreferNoSchedule scoring; NodeResourcesFit counts cpu, memory and pods
// only, with the LeastAllocated strategy fixed. Plugins take no
// arguments. The pod's requests are recomputed per node (a few
// quantity parses) instead of once in a PreScore/CycleState.
package plugins
