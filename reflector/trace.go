// Skip on a first reading: the trace hooks (docs/trace.md), counted apart
// like the metrics. While the trace is off each returns at its first line.

package reflector

import (
	"context"

	"kubeloop/api"
	"kubeloop/trace"
)

// traceReceived reports a watch event arriving ("reflector received") as
// the component whose context runs the reflector.
func (r *Reflector) traceReceived(ctx context.Context, ev api.WatchEvent) {
	if !trace.On() || ev.Type == api.Bookmark || ev.Type == api.Error {
		return
	}
	component := trace.ComponentFrom(ctx)
	e := trace.ObjectEvent(trace.Off, trace.ReflectorReceived, component, r.name, ev.Object, string(ev.Type))
	e.Step = trace.DeliveryStep(component, e.ResourceVersion, e.Key)
	trace.Emit(e)
}
