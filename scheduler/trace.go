// Skip on a first reading: the trace hooks (docs/trace.md), counted apart
// like the metrics. While the trace is off each returns at its first line.

package scheduler

import (
	"strconv"

	"kubeloop/api"
	"kubeloop/trace"
)

// traceScheduled reports a scheduling cycle's outcome: how many nodes the
// filters kept ("scheduler filter") and the node the scores picked
// ("scheduler score"). Both are arrow 7, before the binding is written.
func (s *Scheduler) traceScheduled(pod *api.Pod, r scheduleResult) {
	if !trace.On() {
		return
	}
	trace.Emit(trace.ObjectEvent(7, trace.SchedulerFilter, trace.Scheduler, "pods", pod,
		strconv.Itoa(r.feasibleNodes)+" of "+strconv.Itoa(r.evaluatedNodes)+" nodes fit"))
	score := "score " + strconv.FormatInt(r.score, 10)
	if r.feasibleNodes == 1 {
		score = "the only fit: not scored"
	}
	trace.Emit(trace.ObjectEvent(7, trace.SchedulerScore, trace.Scheduler, "pods", pod, r.host+", "+score))
}

// traceBound reports the binding accepted ("scheduler bind").
func (s *Scheduler) traceBound(pod *api.Pod, r scheduleResult) {
	if trace.On() {
		trace.Emit(trace.ObjectEvent(7, trace.SchedulerBind, trace.Scheduler, "pods", pod, "bound to "+r.host))
	}
}
