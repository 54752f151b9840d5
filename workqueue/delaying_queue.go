package workqueue

import (
	"container/heap"
	"sync"
	"time"
)

// TypedDelayingInterface is a queue that can also add an item later: the
// tool for retrying without a hot loop.
type TypedDelayingInterface[T comparable] interface {
	TypedInterface[T]
	// AddAfter adds item once duration has passed. It is ignored while
	// shutting down; duration <= 0 adds at once. If item is already waiting,
	// only the earlier of the two times is kept.
	AddAfter(item T, duration time.Duration)
}

// TypedDelayingQueueConfig customises a delaying queue; the zero value is an
// unnamed queue on the real clock.
type TypedDelayingQueueConfig[T comparable] struct {
	Name            string
	MetricsProvider MetricsProvider
	Clock           Clock
}

// NewTypedDelayingQueue returns an unnamed delaying queue with no metrics.
func NewTypedDelayingQueue[T comparable]() TypedDelayingInterface[T] {
	return NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{})
}

// NewTypedDelayingQueueWithConfig returns a delaying queue customised by config.
func NewTypedDelayingQueueWithConfig[T comparable](config TypedDelayingQueueConfig[T]) TypedDelayingInterface[T] {
	return newDelayingQueue(config)
}

// delayingType is a Typed queue plus a min-heap of items waiting for their
// time, and one goroutine (waitingLoop) that moves them into the queue.
type delayingType[T comparable] struct {
	*Typed[T]

	clock   Clock
	retries CounterMetric // nil for unnamed queues

	// mu guards waiting and waitingByItem. Invariant: an item is in waiting
	// at most once, and waitingByItem[x] is its entry.
	mu            sync.Mutex
	waiting       waitForPriorityQueue[T]
	waitingByItem map[T]*waitFor[T]

	wake     chan struct{} // capacity 1: "the head of waiting changed"
	stopCh   chan struct{}
	stopOnce sync.Once
	loopDone chan struct{}
}

func newDelayingQueue[T comparable](config TypedDelayingQueueConfig[T]) *delayingType[T] {
	if config.Clock == nil {
		config.Clock = RealClock{}
	}
	q := &delayingType[T]{
		Typed: NewTypedWithConfig(TypedQueueConfig[T]{
			Name: config.Name, MetricsProvider: config.MetricsProvider, Clock: config.Clock,
		}),
		clock:         config.Clock,
		retries:       newRetriesMetric(config.MetricsProvider, config.Name),
		waitingByItem: map[T]*waitFor[T]{},
		wake:          make(chan struct{}, 1),
		stopCh:        make(chan struct{}),
		loopDone:      make(chan struct{}),
	}
	go q.waitingLoop()
	return q
}

// waitFor is an item waiting in the heap until readyAt.
type waitFor[T any] struct {
	data    T
	readyAt time.Time
	index   int // position in the heap, kept up to date by Swap for heap.Fix
}

// waitForPriorityQueue is a container/heap of waiting items, earliest first.
type waitForPriorityQueue[T any] []*waitFor[T]

func (pq waitForPriorityQueue[T]) Len() int           { return len(pq) }
func (pq waitForPriorityQueue[T]) Less(i, j int) bool { return pq[i].readyAt.Before(pq[j].readyAt) }
func (pq waitForPriorityQueue[T]) Swap(i, j int) {
	pq[i], pq[j] = pq[j], pq[i]
	pq[i].index = i
	pq[j].index = j
}

func (pq *waitForPriorityQueue[T]) Push(x any) {
	e := x.(*waitFor[T])
	e.index = len(*pq)
	*pq = append(*pq, e)
}

func (pq *waitForPriorityQueue[T]) Pop() any {
	old := *pq
	e := old[len(old)-1]
	old[len(old)-1] = nil
	*pq = old[:len(old)-1]
	e.index = -1
	return e
}

// AddAfter puts item in the heap directly, under the heap's lock, and wakes
// the loop only if item became the new head. client-go instead sends every
// entry over a buffered channel to the loop goroutine; inserting here keeps
// the ready time exact and avoids a goroutine hand-off per call.
func (q *delayingType[T]) AddAfter(item T, duration time.Duration) {
	if q.ShuttingDown() {
		return
	}
	if q.retries != nil {
		q.retries.Inc()
	}
	if duration <= 0 {
		q.Add(item)
		return
	}
	readyAt := q.clock.Now().Add(duration)

	q.mu.Lock()
	e, ok := q.waitingByItem[item]
	switch {
	case !ok:
		e = &waitFor[T]{data: item, readyAt: readyAt}
		heap.Push(&q.waiting, e)
		q.waitingByItem[item] = e
	case readyAt.Before(e.readyAt):
		e.readyAt = readyAt
		heap.Fix(&q.waiting, e.index)
	default:
		q.mu.Unlock()
		return // an earlier time is already pending
	}
	isHead := e.index == 0
	q.mu.Unlock()

	if isHead {
		select {
		case q.wake <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// waitingLoop sleeps until the head of the heap is due (or a new head
// arrives), then moves every due item into the queue through Add, so dedup
// applies to delayed items too.
func (q *delayingType[T]) waitingLoop() {
	defer close(q.loopDone)
	// One timer for the loop's life, re-armed only when the head's ready
	// time changes: no allocation per wake-up, and a spurious wake-up never
	// moves a deadline that is already armed.
	timer := q.clock.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	armed := false
	var armedAt time.Time
	var ready []T
	for {
		now := q.clock.Now()
		q.mu.Lock()
		for len(q.waiting) > 0 && !q.waiting[0].readyAt.After(now) {
			e := heap.Pop(&q.waiting).(*waitFor[T])
			delete(q.waitingByItem, e.data)
			ready = append(ready, e.data)
		}
		if len(q.waiting) > 0 {
			if head := q.waiting[0].readyAt; !armed || !head.Equal(armedAt) {
				timer.Reset(head.Sub(now))
				armed, armedAt = true, head
			}
		} else if armed {
			timer.Stop()
			armed = false
		}
		q.mu.Unlock()

		// Add outside mu: the queue has its own lock, and AddAfter callers
		// should not wait for it.
		var zero T
		for i, item := range ready {
			q.Add(item)
			ready[i] = zero
		}
		ready = ready[:0]

		var fired <-chan time.Time
		if armed {
			fired = timer.C()
		}
		select {
		case <-q.stopCh:
			return
		case <-fired:
			armed = false
		case <-q.wake:
		}
	}
}

// ShutDown stops the waiting loop, dropping items still waiting, then shuts
// the queue down.
func (q *delayingType[T]) ShutDown() {
	q.stopLoop()
	q.Typed.ShutDown()
}

// ShutDownWithDrain stops the waiting loop, then drains the queue. Items
// still waiting for their time are dropped, as in client-go.
func (q *delayingType[T]) ShutDownWithDrain() {
	q.stopLoop()
	q.Typed.ShutDownWithDrain()
}

func (q *delayingType[T]) stopLoop() {
	q.stopOnce.Do(func() { close(q.stopCh) })
	<-q.loopDone
}
