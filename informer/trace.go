// Skip on a first reading: the trace hook (docs/trace.md), counted apart
// like the metrics. While the trace is off it returns at its first line.

package informer

import (
	"strconv"

	"kubeloop/trace"
)

// traceHandled reports a notification handed to the handlers ("informer
// handler"): which call and to how many (each runs on its own listener
// goroutine, so a moment later). Called under mu.
func (s *sharedIndexInformer) traceHandled(n notification, isSync bool) {
	if !trace.On() {
		return
	}
	var obj any
	call := ""
	switch n.kind {
	case addNotification:
		obj, call = n.newObj, "OnAdd"
	case updateNotification:
		obj, call = n.newObj, "OnUpdate"
	case deleteNotification:
		obj, call = n.oldObj, "OnDelete"
	}
	handlers := 0
	for _, l := range s.listeners {
		if !isSync || l.syncing {
			handlers++
		}
	}
	e := trace.ObjectEvent(trace.Off, trace.InformerHandler, s.component, s.name, obj, call+" to "+strconv.Itoa(handlers)+" handlers")
	e.Step = trace.DeliveryStep(s.component, e.ResourceVersion, e.Key)
	trace.Emit(e)
}
