package workqueue

import "sync"

// TypedInterface is a work queue of keys; see the package doc.
type TypedInterface[T comparable] interface {
	Add(item T)                   // ignored while shutting down or while item already waits
	Len() int                     // items waiting, not being processed; never gate Add or Get on it
	Get() (item T, shutdown bool) // blocks for an item (call Done with it), or until shut down and empty
	Done(item T)                  // ends processing; an item added meanwhile is queued again
	ShutDown()                    // ignore new adds; Get drains what is queued, then reports shutdown
	ShutDownWithDrain()           // ShutDown, then wait for every handed-out item's Done (a ShutDown stops it)
	ShuttingDown() bool
}

// TypedQueueConfig: metrics are recorded only for a named queue given a
// MetricsProvider (client-go also has a global default provider).
type TypedQueueConfig[T comparable] struct {
	Name            string
	MetricsProvider MetricsProvider
	Clock           Clock // nil is RealClock
}

// Typed is the basic work queue; see TypedInterface.
type Typed[T comparable] struct {
	// Guarded by mu. Invariants: every item in queue is in dirty and not in
	// processing, and is in queue once (dirty is the dedup set); an item in
	// both dirty and processing was added while a worker had it: it waits
	// outside queue, and Done puts it there.
	mu           sync.Mutex
	cond         sync.Cond // on mu: queue grew, or processing emptied during a drain
	queue        fifo[T]
	dirty        map[T]struct{}
	processing   map[T]struct{}
	shuttingDown bool
	drain        bool // a ShutDownWithDrain waits for processing to empty
	clock        Clock
	metrics      *queueMetrics[T] // nil records nothing (metrics.go)
	trace        queueTrace[T]    // trace.go
	stopCh       chan struct{}    // closed on shut down: stops the goroutines in wg
	wg           sync.WaitGroup   // the metrics updater, the delaying queue's loop
}

// NewTyped returns an unnamed queue with no metrics.
func NewTyped[T comparable]() *Typed[T] { return NewTypedWithConfig(TypedQueueConfig[T]{}) }

func NewTypedWithConfig[T comparable](config TypedQueueConfig[T]) *Typed[T] {
	if config.Clock == nil {
		config.Clock = RealClock{}
	}
	q := &Typed[T]{dirty: map[T]struct{}{}, processing: map[T]struct{}{}, clock: config.Clock,
		trace: newQueueTrace[T](config.Name), stopCh: make(chan struct{})}
	q.cond.L = &q.mu
	q.metrics = newQueueMetrics(q, config.MetricsProvider, config.Name, config.Clock)
	return q
}

func (q *Typed[T]) Add(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown {
		return
	}
	if _, ok := q.dirty[item]; ok {
		q.trace.deduplicated(item)
		return
	}
	q.metrics.add(item)
	q.trace.add(item)
	q.dirty[item] = struct{}{}
	if _, ok := q.processing[item]; ok {
		return // Done will queue it: one worker per item
	}
	q.queue.push(item)
	q.cond.Signal()
}

func (q *Typed[T]) Len() int { q.mu.Lock(); defer q.mu.Unlock(); return q.queue.len() }

func (q *Typed[T]) Get() (item T, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.queue.len() == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if q.queue.len() == 0 {
		return item, true // shutting down and drained
	}
	item = q.queue.pop()
	q.metrics.get(item)
	q.trace.get(item)
	q.processing[item] = struct{}{}
	delete(q.dirty, item)
	return item, false
}

// Done for an item that is not being processed is a no-op (in client-go, a
// second copy of a dirty item in the FIFO).
func (q *Typed[T]) Done(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.processing[item]; !ok {
		return
	}
	delete(q.processing, item)
	q.metrics.done(item)
	if _, ok := q.dirty[item]; ok {
		q.queue.push(item)
		q.cond.Signal()
	}
	if len(q.processing) == 0 && q.drain {
		q.cond.Broadcast() // wake ShutDownWithDrain
	}
}

func (q *Typed[T]) ShutDown()          { q.shutDown(false) }
func (q *Typed[T]) ShutDownWithDrain() { q.shutDown(true) }

// shutDown wakes every Get and stops the background goroutines; with drain it
// waits until processing is empty or a plain ShutDown (drain false) releases it.
func (q *Typed[T]) shutDown(drain bool) {
	q.mu.Lock()
	if !q.shuttingDown {
		close(q.stopCh)
	}
	q.drain, q.shuttingDown = drain, true
	q.cond.Broadcast()
	for len(q.processing) != 0 && q.drain {
		q.cond.Wait()
	}
	q.mu.Unlock()
	q.wg.Wait()
}

func (q *Typed[T]) ShuttingDown() bool { q.mu.Lock(); defer q.mu.Unlock(); return q.shuttingDown }
