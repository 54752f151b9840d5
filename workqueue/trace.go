// Skip on a first reading: the trace hooks (docs/trace.md), counted apart
// like the metrics. While the trace is off each returns at its first line.

package workqueue

import (
	"fmt"
	"time"

	"kubeloop/trace"
)

// queueTrace is what the trace needs beyond the queue's own state: its name
// (the controller it belongs to) and when each waiting item was added, to
// report the time it waited. Guarded by the queue's mu; added stays nil
// while the trace is off.
type queueTrace[T comparable] struct {
	name  string
	added map[T]time.Time
}

// add reports a new item ("workqueue add").
func (t *queueTrace[T]) add(item T) {
	if !trace.On() {
		return
	}
	if t.added == nil {
		t.added = map[T]time.Time{}
	}
	t.added[item] = time.Now()
	trace.Emit(trace.Event{Step: trace.QueueStep(t.name, trace.WorkqueueAdd), Hop: trace.WorkqueueAdd,
		Component: t.name, Key: fmt.Sprint(item)})
}

// deduplicated reports an add of an item that already waits: the queue
// keeps one copy, the lesson of the dirty set. If the first add came before
// the trace was switched on, this one starts the item's wait, so its get is
// reported too.
func (t *queueTrace[T]) deduplicated(item T) {
	if !trace.On() {
		return
	}
	if t.added == nil {
		t.added = map[T]time.Time{}
	}
	if _, ok := t.added[item]; !ok {
		t.added[item] = time.Now()
	}
	trace.Emit(trace.Event{Step: trace.QueueStep(t.name, trace.WorkqueueAdd), Hop: trace.WorkqueueAdd,
		Component: t.name, Key: fmt.Sprint(item), Detail: "already queued: one copy kept"})
}

// get reports an item handed to a worker ("workqueue get") and how long it
// waited since its add.
func (t *queueTrace[T]) get(item T) {
	if t.added == nil {
		return
	}
	added, ok := t.added[item]
	delete(t.added, item)
	if !ok || !trace.On() {
		return
	}
	trace.Emit(trace.Event{Step: trace.QueueStep(t.name, trace.WorkqueueGet), Hop: trace.WorkqueueGet,
		Component: t.name, Key: fmt.Sprint(item), Detail: "waited " + time.Since(added).Round(time.Microsecond).String()})
}
