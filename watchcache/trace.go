// Skip on a first reading: the trace hooks (docs/trace.md), counted apart
// like the metrics. While the trace is off each returns at its first line.

package watchcache

import (
	"strconv"

	"kubeloop/api"
	"kubeloop/trace"
)

// traceDispatched reports an event fanned out to watchers ("watch cache
// dispatched"), numbered by the write it carries: the arrow after it.
func (c *Cacher) traceDispatched(typ api.EventType, obj api.Object, rv uint64, watchers int) {
	if !trace.On() {
		return
	}
	srv := strconv.FormatUint(rv, 10)
	e := trace.ObjectEvent(trace.Off, trace.WatchDispatched, "watch cache", c.info.Resource, obj,
		string(typ)+" to "+strconv.Itoa(watchers)+" watchers")
	e.ResourceVersion = srv
	e.Step = trace.DispatchStep(srv, e.Key)
	trace.Emit(e)
}
