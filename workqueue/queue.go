package workqueue

import (
	"sync"
	"time"
)

// TypedInterface is a work queue of keys: it remembers that a key needs work,
// hands each key to one worker at a time, and coalesces repeated adds.
type TypedInterface[T comparable] interface {
	// Add marks item as needing processing. It is ignored while shutting
	// down and when item is already waiting.
	Add(item T)
	// Len is the number of items waiting to be handed out; items being
	// processed do not count. For information only: never gate Add or Get on it.
	Len() int
	// Get blocks until an item is ready and hands it to the caller, who must
	// call Done with it. shutdown is true once the queue is shut down and empty.
	Get() (item T, shutdown bool)
	// Done ends the processing of item; if it was added meanwhile it is queued again.
	Done(item T)
	// ShutDown makes the queue ignore new adds; Get drains what is queued,
	// then reports shutdown.
	ShutDown()
	// ShutDownWithDrain is ShutDown that also waits until every item handed
	// out has been marked Done. A concurrent ShutDown stops the wait.
	ShutDownWithDrain()
	ShuttingDown() bool
}

// TypedQueueConfig customises a queue. The zero value is an unnamed queue on
// the real clock that records no metrics.
type TypedQueueConfig[T comparable] struct {
	// Name labels the queue's metrics. Unnamed queues record nothing.
	Name string
	// MetricsProvider creates the metrics of a named queue. Unlike client-go
	// there is no global default provider: nil records nothing.
	MetricsProvider MetricsProvider
	// Clock defaults to RealClock.
	Clock Clock
}

// Typed is the basic work queue; see TypedInterface.
type Typed[T comparable] struct {
	// The state below is guarded by mu. Invariants:
	//   - every item in queue is in dirty and not in processing;
	//   - an item is in queue at most once (dirty is the dedup set);
	//   - an item in both dirty and processing was added while a worker had
	//     it: it waits outside queue, and Done puts it there.
	queue        fifo[T]
	dirty        map[T]struct{}
	processing   map[T]struct{}
	mu           sync.Mutex
	cond         sync.Cond // on mu; signalled when queue grows or processing empties
	shuttingDown bool
	drain        bool // a ShutDownWithDrain is waiting for processing to empty

	metrics *queueMetrics[T] // nil when the queue records nothing
	clock   Clock
	trace   queueTrace[T]

	stopCh   chan struct{} // closed on shut down; stops the metrics updater
	stopOnce sync.Once
	wg       sync.WaitGroup // the metrics updater goroutine
}

// NewTyped returns an unnamed queue with no metrics.
func NewTyped[T comparable]() *Typed[T] {
	return NewTypedWithConfig(TypedQueueConfig[T]{})
}

// NewTypedWithConfig returns a queue customised by config.
func NewTypedWithConfig[T comparable](config TypedQueueConfig[T]) *Typed[T] {
	return newTypedQueue(config, defaultUnfinishedWorkUpdatePeriod)
}

func newTypedQueue[T comparable](config TypedQueueConfig[T], updatePeriod time.Duration) *Typed[T] {
	if config.Clock == nil {
		config.Clock = RealClock{}
	}
	q := &Typed[T]{
		dirty:      map[T]struct{}{},
		processing: map[T]struct{}{},
		metrics:    newQueueMetrics[T](config.MetricsProvider, config.Name, config.Clock),
		clock:      config.Clock,
		trace:      queueTrace[T]{name: config.Name},
		stopCh:     make(chan struct{}),
	}
	q.cond.L = &q.mu
	if q.metrics != nil {
		q.wg.Add(1)
		go q.updateUnfinishedWorkLoop(updatePeriod)
	}
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

func (q *Typed[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.queue.len()
}

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

// Done ends the processing of item. Unlike client-go, calling Done for an
// item that is not being processed is a no-op rather than a second copy of a
// dirty item in the FIFO.
func (q *Typed[T]) Done(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	before := len(q.processing)
	delete(q.processing, item) // one map operation serves as lookup and removal
	if len(q.processing) == before {
		return
	}
	q.metrics.done(item)
	if _, ok := q.dirty[item]; ok {
		q.queue.push(item)
		q.cond.Signal()
	}
	if len(q.processing) == 0 && q.drain {
		q.cond.Broadcast() // wake ShutDownWithDrain
	}
}

func (q *Typed[T]) ShutDown() {
	q.stop()
	q.mu.Lock()
	q.drain = false // releases a ShutDownWithDrain that is waiting
	q.shuttingDown = true
	q.cond.Broadcast()
	q.mu.Unlock()
	q.wg.Wait()
}

func (q *Typed[T]) ShutDownWithDrain() {
	q.stop()
	q.mu.Lock()
	q.drain = true
	q.shuttingDown = true
	q.cond.Broadcast()
	for len(q.processing) != 0 && q.drain {
		q.cond.Wait()
	}
	q.mu.Unlock()
	q.wg.Wait()
}

func (q *Typed[T]) ShuttingDown() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.shuttingDown
}

func (q *Typed[T]) stop() {
	q.stopOnce.Do(func() { close(q.stopCh) })
}
