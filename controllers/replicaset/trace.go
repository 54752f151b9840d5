// Skip on a first reading: the trace hooks (docs/trace.md), counted apart
// like the metrics. While the trace is off each returns at its first line.

package replicaset

import (
	"strconv"

	"kubeloop/api"
	"kubeloop/trace"
)

// traceSync reports the reconcile's diff ("reconcile": want spec.replicas,
// have the active pods it owns), before it acts.
func (rsc *Controller) traceSync(rs *api.ReplicaSet, pods []*api.Pod, needsSync bool) {
	if !trace.On() {
		return
	}
	detail := "want " + strconv.Itoa(int(replicas(rs))) + ", have " + strconv.Itoa(len(pods))
	if !needsSync {
		detail += " (earlier creates or deletes not yet observed: wait)"
	}
	trace.Emit(trace.ObjectEvent(4, trace.Reconcile, trace.ReplicaSetQueue, "replicasets", rs, detail))
}

// tracePodCreated reports a pod the controller created ("pod create"); it
// is emitted when the response is back, which may be after the watch cache
// has already dispatched the new pod.
func (rsc *Controller) tracePodCreated(pod *api.Pod) {
	if trace.On() {
		trace.Emit(trace.ObjectEvent(5, trace.PodCreate, trace.ReplicaSetQueue, "pods", pod, "POST from the template"))
	}
}

// traceRunningObserved reports the controller's pod handler seeing a pod
// turn Running: the end of the spine, as the controller learns of it.
func (rsc *Controller) traceRunningObserved(old, cur *api.Pod) {
	if trace.On() && cur.Status.Phase == api.PodRunning && old.Status.Phase != api.PodRunning {
		trace.Emit(trace.ObjectEvent(10, trace.RunningObserved, trace.ReplicaSetQueue, "pods", cur, "phase Running"))
	}
}
