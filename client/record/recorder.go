package record

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"kubeloop/api"
	"kubeloop/client"
)

// EventRecorder is what components call.
type EventRecorder interface {
	Event(object api.Object, eventType, reason, message string)
	Eventf(object api.Object, eventType, reason, messageFmt string, args ...any)
}

const (
	// queueLength bounds the events waiting to be written (client-go's
	// maxQueuedEvents).
	queueLength = 1000
	// maxSeen bounds the aggregation memory (client-go keeps an LRU of
	// 4096); when full, the oldest key is forgotten and its next repeat
	// starts a new Event.
	maxSeen = 4096
)

// Recorder writes Events for one component. Start it with Run.
type Recorder struct {
	events    *client.Resource[*api.Event]
	component string
	host      string
	log       *slog.Logger

	queue chan *api.Event
	spam  *spamFilter
	// seen maps an aggregation key to the Event already written for it, so
	// a repeat becomes a count bump instead of a new Event; seenOrder holds
	// its keys oldest first, to forget the oldest when full. Only Run's
	// goroutine touches them.
	seen      map[string]seenEvent
	seenOrder []string
	// dropped counts events lost to a full buffer, so the warning is
	// logged once per 100 drops rather than once per event.
	dropped atomic.Int64

	wg   sync.WaitGroup
	once sync.Once
}

// NewRecorder makes a recorder that reports as component (and host, for the
// kubelet). Events are written only while Run is running.
func NewRecorder(c *client.Client, component, host string) *Recorder {
	return &Recorder{
		events:    client.For[*api.Event](c),
		component: component,
		host:      host,
		log:       slog.Default().With("component", component),
		queue:     make(chan *api.Event, queueLength),
		spam:      newSpamFilter(),
		seen:      map[string]seenEvent{},
	}
}

// Event records an event about object.
func (r *Recorder) Event(object api.Object, eventType, reason, message string) {
	ref := ReferenceTo(object)
	now := api.Now()
	ev := &api.Event{
		ObjectMeta: api.ObjectMeta{
			// Kubernetes names events <object>.<hex nanoseconds>.
			Name:      fmt.Sprintf("%s.%x", ref.Name, time.Now().UnixNano()),
			Namespace: eventNamespace(ref),
		},
		InvolvedObject:      ref,
		Reason:              reason,
		Message:             message,
		Type:                eventType,
		Source:              api.EventSource{Component: r.component, Host: r.host},
		FirstTimestamp:      now,
		LastTimestamp:       now,
		Count:               1,
		ReportingController: r.component,
		ReportingInstance:   r.host,
	}
	if !r.spam.allow(ev, time.Now()) {
		return
	}
	select {
	case r.queue <- ev:
	default:
		if n := r.dropped.Add(1); n%100 == 1 {
			r.log.Warn("event buffer full; dropping events", "object", ref.Namespace+"/"+ref.Name, "reason", reason, "dropped", n)
		}
	}
}

// Eventf is Event with a format string.
func (r *Recorder) Eventf(object api.Object, eventType, reason, messageFmt string, args ...any) {
	r.Event(object, eventType, reason, fmt.Sprintf(messageFmt, args...))
}

// Run writes queued events until ctx ends, then writes what is left.
func (r *Recorder) Run(ctx context.Context) {
	for {
		select {
		case ev := <-r.queue:
			r.write(ctx, ev)
		case <-ctx.Done():
			// Drain with a short deadline of its own: the events already
			// reported are part of what happened.
			// What does not fit in it is dropped with one log line.
			drainCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			for {
				select {
				case ev := <-r.queue:
					if drainCtx.Err() != nil {
						r.log.Warn("stopping; dropping unwritten events", "dropped", len(r.queue)+1)
						return
					}
					r.write(drainCtx, ev)
				default:
					return
				}
			}
		}
	}
}

// write creates the event, or bumps the count of the earlier identical one.
func (r *Recorder) write(ctx context.Context, ev *api.Event) {
	key := aggregationKey(ev)
	ns := r.events.Namespace(ev.Namespace)
	if prev, ok := r.seen[key]; ok {
		patch, _ := json.Marshal(map[string]any{
			"count":         prev.count + 1,
			"lastTimestamp": ev.LastTimestamp,
			"message":       ev.Message,
		})
		updated, err := ns.Patch(ctx, prev.name, client.MergePatchType, patch, client.PatchOptions{})
		if err == nil {
			r.seen[key] = seenEvent{name: updated.Name, count: updated.Count}
			return
		}
		if !api.IsNotFound(err) {
			r.log.Warn("could not update event", "event", prev.name, "err", err)
			return
		}
		// The earlier event is gone (deleted or expired): start a new one.
		delete(r.seen, key)
	}
	created, err := ns.Create(ctx, ev, client.CreateOptions{})
	if api.IsAlreadyExists(err) {
		// Two events about one object in the same nanosecond share a
		// name; the second gets a fresh one.
		ev.Name = fmt.Sprintf("%s.%x", ev.InvolvedObject.Name, time.Now().UnixNano())
		created, err = ns.Create(ctx, ev, client.CreateOptions{})
	}
	if err != nil {
		r.log.Warn("could not write event", "object", ev.InvolvedObject.Namespace+"/"+ev.InvolvedObject.Name, "reason", ev.Reason, "err", err)
		return
	}
	r.remember(key, seenEvent{name: created.Name, count: created.Count})
}

// seenEvent is what a repeat needs of the Event written before: its name
// and count. Kubernetes' event logger keeps as little (eventLog: count,
// first timestamp, name, resourceVersion); keeping the whole Event that
// the create returned cost every simulated kubelet two Events per pod
// (Created, Started), managedFields included.
type seenEvent struct {
	name  string
	count int32
}

func (r *Recorder) remember(key string, ev seenEvent) {
	if _, ok := r.seen[key]; !ok {
		if len(r.seenOrder) >= maxSeen {
			delete(r.seen, r.seenOrder[0])
			r.seenOrder = r.seenOrder[1:]
		}
		r.seenOrder = append(r.seenOrder, key)
	}
	r.seen[key] = ev
}

func aggregationKey(ev *api.Event) string {
	o := ev.InvolvedObject
	return o.Kind + "\x00" + o.Namespace + "\x00" + o.Name + "\x00" + o.UID + "\x00" +
		ev.Type + "\x00" + ev.Reason + "\x00" + ev.Message + "\x00" + ev.Source.Component + "\x00" + ev.Source.Host
}

// eventNamespace: events about cluster-scoped objects live in "default".
func eventNamespace(ref api.ObjectReference) string {
	if ref.Namespace == "" {
		return "default"
	}
	return ref.Namespace
}

// ReferenceTo builds the involvedObject of an event about obj.
func ReferenceTo(obj api.Object) api.ObjectReference {
	m := obj.GetObjectMeta()
	tm := *obj.GetTypeMeta()
	if tm.Kind == "" {
		if info, ok := api.Builtin().ForObject(obj); ok {
			tm.APIVersion, tm.Kind = info.GroupVersion(), info.Kind
		}
	}
	return api.ObjectReference{
		Kind: tm.Kind, APIVersion: tm.APIVersion,
		Namespace: m.Namespace, Name: m.Name, UID: m.UID, ResourceVersion: m.ResourceVersion,
	}
}

// FakeRecorder collects events as strings ("Normal SuccessfulCreate msg") for
// unit tests of code that reports events; integration tests read the real
// Events back from the API instead.
type FakeRecorder struct {
	mu     sync.Mutex
	Events []string
}

func (f *FakeRecorder) Event(_ api.Object, eventType, reason, message string) {
	f.mu.Lock()
	f.Events = append(f.Events, eventType+" "+reason+" "+message)
	f.mu.Unlock()
}

func (f *FakeRecorder) Eventf(o api.Object, eventType, reason, messageFmt string, args ...any) {
	f.Event(o, eventType, reason, fmt.Sprintf(messageFmt, args...))
}

// Snapshot returns a copy of the recorded events.
func (f *FakeRecorder) Snapshot() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.Events...)
}
