package trace

import (
	"sync"
	"sync/atomic"
	"time"
)

// Step is the number of an arrow of the deep-dive's sequence diagram
// ("scale to 5"), 1 to 10; Off marks an event that is no arrow of it (a
// ReplicaSet status write, a kubelet seeing its own status write).
type Step uint8

// Off is the step of events beside the spine.
const Off Step = 0

// Hop says what happened at a site. The names are those of the list,
// so that a line of the trace reads as the lesson does.
type Hop string

// The instrumented sites, in the order a change meets them.
const (
	APIServerReceived Hop = "apiserver received"
	EtcdCommitted     Hop = "etcd committed"
	WatchDispatched   Hop = "watch cache dispatched"
	ReflectorReceived Hop = "reflector received"
	DeltaFIFOQueued   Hop = "DeltaFIFO queued"
	InformerHandler   Hop = "informer handler"
	WorkqueueAdd      Hop = "workqueue add"
	WorkqueueGet      Hop = "workqueue get"
	Reconcile         Hop = "reconcile"
	PodCreate         Hop = "pod create"
	SchedulerFilter   Hop = "scheduler filter"
	SchedulerScore    Hop = "scheduler score"
	SchedulerBind     Hop = "scheduler bind"
	KubeletStart      Hop = "kubelet start"
	StatusWritten     Hop = "status written"
	RunningObserved   Hop = "Running observed"
)

// Event is one line of the spine.
type Event struct {
	Step Step `json:"step"`
	Hop  Hop  `json:"hop"`
	// Component is who did it: apiserver, etcd, watch cache, a process
	// component (controller-manager, scheduler, kubelet-node-1) or, for a
	// workqueue, the controller that owns the queue (replicaset).
	Component string `json:"component"`
	// Resource is the object's resource ("pods"); empty for a bare
	// workqueue key.
	Resource string `json:"resource,omitempty"`
	// Key is namespace/name.
	Key string `json:"key"`
	// Owner is the controlling owner, "Kind namespace/name", when the site
	// knows the object (a filter follows a ReplicaSet's pods by it).
	Owner           string    `json:"owner,omitempty"`
	ResourceVersion string    `json:"resourceVersion,omitempty"`
	Time            time.Time `json:"time"`
	Detail          string    `json:"detail,omitempty"`
}

// tracer is the process's switch and its subscribers. There is one per
// process (see doc.go for why a package-level value): subs is replaced, never
// changed in place, so Emit reads it without a lock.
type tracer struct {
	on     atomic.Bool
	mu     sync.Mutex // serialises Subscribe and Close
	subs   atomic.Pointer[[]*Subscription]
	writes writeSteps
	// calls counts the calls of Emit, on or off.
	calls atomic.Uint64
}

var process tracer

// On reports whether anyone is listening. Every site checks it before it
// builds an Event, so an idle trace costs one atomic load per site.
func On() bool { return process.on.Load() }

// Switch is what On reads, for a site in a generic function: Go does not
// inline a call into another package from the body of a generic function
// instantiated elsewhere (a workqueue's Add is compiled in its controller's
// package), but it does inline a Load of the switch itself. Never Store it.
func Switch() *atomic.Bool { return &process.on }

// Emit hands e to every subscriber whose filter takes it, stamping the time
// if unset. It never blocks: a subscriber whose buffer is full loses the
// event and counts it.
func Emit(e Event) {
	process.calls.Add(1)
	if !process.on.Load() {
		return
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	subs := process.subs.Load()
	if subs == nil {
		return
	}
	for _, s := range *subs {
		s.offer(&e)
	}
}

// Emitted is how many times Emit was called since the process started. A
// site calls it only after checking On, so while the trace is off it does not
// move (TestNoEventWhileNobodyListens in cmd/kubeloop checks every site).
func Emitted() uint64 { return process.calls.Load() }

// Subscription receives the events its filter takes on C.
type Subscription struct {
	// C delivers events in the order Emit was called per goroutine; it is
	// never closed (Emit may be running when Close is called).
	C <-chan Event

	ch      chan Event
	filter  func(*Event) bool
	dropped atomic.Int64
}

// Subscribe switches the trace on and returns a subscription buffering up
// to buffer events. filter (nil = all) is called from every emitting
// goroutine at once and must be safe for that.
func Subscribe(buffer int, filter func(*Event) bool) *Subscription {
	s := &Subscription{ch: make(chan Event, buffer), filter: filter}
	s.C = s.ch
	process.mu.Lock()
	defer process.mu.Unlock()
	var next []*Subscription
	if cur := process.subs.Load(); cur != nil {
		next = append(next, *cur...)
	}
	next = append(next, s)
	process.subs.Store(&next)
	process.on.Store(true)
	return s
}

// Close stops delivery; the last Close switches the trace off and forgets
// the writes it remembered.
func (s *Subscription) Close() {
	process.mu.Lock()
	defer process.mu.Unlock()
	cur := process.subs.Load()
	if cur == nil {
		return
	}
	var next []*Subscription
	for _, o := range *cur {
		if o != s {
			next = append(next, o)
		}
	}
	process.subs.Store(&next)
	if len(next) == 0 {
		process.on.Store(false)
		process.writes.reset()
	}
}

// Dropped is how many events the buffer had no room for.
func (s *Subscription) Dropped() int64 { return s.dropped.Load() }

func (s *Subscription) offer(e *Event) {
	if s.filter != nil && !s.filter(e) {
		return
	}
	select {
	case s.ch <- *e:
	default:
		s.dropped.Add(1)
	}
}
