// Package nodelifecycle is the node lifecycle controller: it notices nodes
// whose kubelet stopped heartbeating, marks them Ready=Unknown, taints them
// node.kubernetes.io/unreachable:NoExecute, and after a timeout evicts
// (deletes) their pods so that their ReplicaSets recreate them elsewhere.
// When the node heartbeats again with Ready=True, the taint goes.
//
// # Where it sits on the spine
//
// Beside it, as its safety net: the spine ends with pods Running on nodes;
// this controller is what makes "scale to 5" stay true when a node is
// lost. It reads Nodes, node Leases (kube-node-lease) and Pods through
// informers and writes only through the apiserver: node status
// (conditions), node spec (taints) and pod deletions.
//
//	lease/node informer ──▶ queue(node) ──▶ syncNode: silent > grace? ──▶ Ready=Unknown, taint
//	monitor tick (every NodeMonitorPeriod) ──▶ queue(every node)        └─▶ after timeout: delete pods
//
// # Kubernetes counterparts (v1.37.2)
//
//   - pkg/controller/nodelifecycle/node_lifecycle_controller.go:
//     Controller, monitorNodeHealth, tryUpdateNodeHealth (probeTimestamp
//     taken from the controller's own clock when a heartbeat changes),
//     processTaintBaseEviction, markNodeAsReachable.
//   - pkg/controller/tainteviction/taint_eviction.go: deleting pods that do
//     not tolerate a NoExecute taint, after their tolerationSeconds.
//   - Defaults: --node-monitor-period 5 s, --node-monitor-grace-period
//     40 s, and the 300 s that the DefaultTolerationSeconds admission
//     plugin puts on every pod.
//
// # What we simplify
//
//   - No zones, no eviction rate limiting or disruption modes (Kubernetes
//     slows evictions when many nodes of a zone are unhealthy), no
//     not-ready taint for nodes that report Ready=False, no NoSchedule
//     taints, no DisruptionTarget pod condition.
//   - PodEvictionTimeout applies to pods without a toleration of the
//     unreachable taint; in Kubernetes pods get that toleration (300 s)
//     from admission. A pod's own toleration still wins.
//   - Evicted pods are deleted gracefully, as Kubernetes does: they stay
//     Terminating until their kubelet returns, or until the Node is
//     deleted and the pod GC (controllers/podgc) force-deletes them.
package nodelifecycle
