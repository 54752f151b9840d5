// Package framework is the scheduler's plugin framework, much smaller than
// Kubernetes': the plugin interfaces (FilterPlugin, ScorePlugin with an
// optional NormalizeScore), the Status they return, NodeInfo (a node and
// the requests of the pods assigned to it), the Framework that runs the
// registered plugins in order, and FitError, whose message is what users
// read in "kubectl describe pod": "0/3 nodes are available: 3 Insufficient
// cpu."
//
// # On the spine
//
// Spine arrow 7 of "scale to 5" (docs/architecture.md), reading-path step 8:
// for each pending pod, the
// scheduler filters every node with the FilterPlugins, scores the nodes
// that passed with the ScorePlugins and binds the pod to the best one. The
// plugins themselves live in framework/plugins; the loop in package
// scheduler.
//
// # Kubernetes counterparts (release v1.37.2)
//
//   - pkg/scheduler/framework/interface.go (k8s.io/kube-scheduler/framework
//     since 1.34): Plugin, FilterPlugin, ScorePlugin, ScoreExtensions,
//     NodeScore, Status and its codes, MaxNodeScore.
//   - pkg/scheduler/framework/types.go: NodeInfo (AddPodInfo, RemovePod,
//     Snapshot), PodInfo, Resource, Diagnosis, FitError.Error.
//   - pkg/scheduler/framework/runtime/framework.go: RunFilterPlugins,
//     RunScorePlugins (score, normalize, weight).
//   - pkg/scheduler/util/pod_resources.go: the non-zero request defaults.
//
// # What we simplify
//
//   - Only Filter and Score. No QueueSort, PreFilter, PostFilter
//     (preemption), PreScore, Reserve, Permit, PreBind, Bind or PostBind
//     extension points and no CycleState: each plugin computes what it needs
//     from the pod and the NodeInfo.
//   - Three codes (Success, Unschedulable, Error). Kubernetes separates
//     UnschedulableAndUnresolvable to tell preemption which nodes are
//     hopeless; we have no preemption.
//   - NodeInfo counts cpu, memory and pods only: no ephemeral storage,
//     extended resources, host ports, images, volumes or pod affinity
//     bookkeeping. A pod's requests are the sum of its containers' (no init
//     containers, overhead or pod-level resources in kubeloop's API).
//   - Plugins are configured by a Go slice (plugins.Default), not by a
//     KubeSchedulerConfiguration with profiles.
package framework
