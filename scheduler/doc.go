// Package scheduler is kubeloop's kube-scheduler: it watches pods that have
// no node yet and nodes, picks a node for each pending pod, and writes the
// choice as a Binding (POST pods/NAME/binding). Like every kubeloop
// component it reads through informers and writes only through the
// apiserver.
//
// # On the spine
//
// Spine arrows 6 and 7 of "scale to 5" (docs/architecture.md); reading-path
// step 8 (docs/reading-path.md): the ReplicaSet controller has
// created five Pending pods; the pod informer hands each to the scheduling
// queue; scheduleOne places them one per cycle; the binding sets
// spec.nodeName, and the kubelet of that node takes over.
//
// # The pieces
//
//   - scheduler.go: Options, New (wires the pod and node informers of a
//     shared factory) and Run (waits for the caches, loops scheduleOne).
//   - eventhandlers.go: assigned pods go to the cache, pending pods of this
//     scheduler to the queue; node events and assigned-pod deletions retry
//     the unschedulable pods.
//   - queue.go, heap.go: the SchedulingQueue — activeQ (FIFO), backoffQ
//     (per-pod exponential backoff, 1 s doubling to 10 s), unschedulablePods
//     (waiting for a cluster event, or 5 min), and the pods in flight.
//   - cache.go: NodeInfo per node with the requests of its pods, assumed
//     pods included, and the per-cycle Snapshot that copies only what
//     changed.
//   - schedule_one.go: scheduleOne → schedulePod (filter every node, score
//     the feasible ones, selectHost with a random tie-break) → assume →
//     bindingCycle in a goroutine → "Scheduled" event; failures go through
//     handleSchedulingFailure (requeue, "FailedScheduling" event,
//     PodScheduled=False with reason Unschedulable and the FitError
//     message, written only when it changed).
//   - framework/ and framework/plugins/: the plugin interfaces and the
//     filter and score plugins, listed in plugins.Default.
//
// # Kubernetes counterparts (release v1.37.2)
//
//   - pkg/scheduler/scheduler.go: Scheduler, New, Run.
//   - pkg/scheduler/schedule_one.go: ScheduleOne, schedulingCycle,
//     schedulePod, findNodesThatFitPod, prioritizeNodes, selectHost,
//     assume, bindingCycle, bind, handleBindingCycleError,
//     handleSchedulingFailure, updatePod; ErrNoNodesAvailable.
//   - pkg/scheduler/eventhandlers.go: addAllEventHandlers,
//     nodeSchedulingPropertiesChange.
//   - pkg/scheduler/backend/queue/scheduling_queue.go: PriorityQueue (Add,
//     Update, Delete, Pop, Done, AddUnschedulableIfNotPresent,
//     MoveAllToActiveOrBackoffQueue, flushBackoffQCompleted,
//     flushUnschedulablePodsLeftover, calculateBackoffDuration).
//   - pkg/scheduler/backend/cache/cache.go and snapshot.go: AssumePod,
//     ForgetPod, AddPod (confirmation), UpdateSnapshot by generation.
//
// # What we simplify
//
//   - No preemption (so FitError messages end without Kubernetes'
//     " preemption: ..." suffix), no priorities (activeQ is FIFO), no pod
//     affinity or topology spread, no volume binding, no extenders, no
//     Reserve/Permit/PreBind phases, no scheduling gates, one profile.
//   - No queueing hints: any node add or relevant node change, and any
//     assigned pod's deletion, retries every unschedulable pod; a failure
//     that raced with such an event goes to backoffQ (the moveRequestCycle
//     rule Kubernetes used before hints).
//   - Nodes are filtered serially, not in parallel; a big cluster's
//     cycle stops once it has found Kubernetes' share of fitting nodes
//     (percentageOfNodesToScore, feasible_nodes.go).
//   - Finished pods (Succeeded/Failed) stop counting against their node at
//     once; Kubernetes counts them until they are deleted.
//   - Assumed pods never expire (Kubernetes' default TTL is 0 too).
//   - Bindings are capped at 64 in flight (maxConcurrentBinds); Kubernetes
//     relies on its client's QPS limit.
//   - The PodScheduled=False write is a status update (retried on
//     conflict), not a strategic merge patch, and runs in its own goroutine
//     so the next cycle need not wait for it.
package scheduler
