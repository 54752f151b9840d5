// Skip on a first reading: the trace hooks (docs/trace.md), counted apart
// like the metrics. While the trace is off each returns at its first line.

package deltafifo

import (
	"strconv"

	"kubeloop/trace"
)

// traceQueued reports a delta recorded ("DeltaFIFO queued"): the key, the
// delta's type and how many deltas the key now holds (more than one: the
// informer has not popped the earlier ones yet). Call it under the lock.
func (f *DeltaFIFO) traceQueued(key string, t DeltaType, obj any) {
	if !trace.On() {
		return
	}
	e := trace.ObjectEvent(trace.Off, trace.DeltaFIFOQueued, f.opts.Name, "", obj,
		string(t)+", "+strconv.Itoa(len(f.items[key]))+" pending")
	e.Key = key
	e.Step = trace.DeliveryStep(f.opts.Name, e.ResourceVersion, key)
	trace.Emit(e)
}
