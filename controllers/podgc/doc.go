// Package podgc is the pod garbage collector: it deletes the pods no other
// component will. A pod normally goes when its kubelet confirms its
// deletion; a pod whose node is gone, or that never had a node, has no
// kubelet to do that, and terminated pods of finished work pile up.
//
// Where it sits on the spine: beside the node lifecycle controller, as the
// last step of losing a node. nodelifecycle evicts a dead node's pods (they
// become Terminating); once the Node object itself is deleted, the pod GC
// force-deletes them, so they no longer stay Terminating for ever. It reads
// pods and nodes through informers and every GCCheckPeriod (20 s) sweeps
// them all (gc.go):
//
//   - gcTerminated: with more terminated (Succeeded or Failed) pods than
//     --terminated-pod-gc-threshold (12500), the oldest go first, evicted
//     ones before all others;
//   - gcTerminating: terminating pods on a node that is not Ready and has
//     the node.kubernetes.io/out-of-service taint;
//   - gcOrphaned: pods bound to a node that does not exist, once that node
//     has been missing from the cache for the quarantine (40 s) and a live
//     GET confirms it; these get the DisruptionTarget condition (reason
//     DeletionByPodGC, "PodGC: node no longer exists");
//   - gcUnscheduledTerminating: terminating pods never bound to a node.
//
// Each is first moved to phase Failed if it is not terminal (nothing else
// would, with no kubelet), then deleted with grace period 0.
//
// Kubernetes counterpart (v1.37.2): pkg/controller/podgc/gc_controller.go
// (PodGCController, gc, gcTerminated, gcTerminating, gcOrphaned,
// discoverDeletedNodes, gcUnscheduledTerminating,
// markFailedAndDeletePodWithCondition, byEvictionAndCreationTimestamp).
// It is a periodic sweep, not the sample-controller queue of keys, there
// as here: what it looks for is a property of the whole set of pods.
//
// What we simplify: the deletions of one sweep are sent one after the
// other (Kubernetes starts a goroutine per pod); the status goes through
// UpdateStatus on the cached pod rather than a patch (see
// markFailedAndDelete); there are no deleting_pods_total metrics.
package podgc
