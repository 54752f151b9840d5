package workqueue

import (
	"container/heap"
	"sync"
	"time"
)

// TypedDelayingInterface can also add an item later: retries without a hot loop.
type TypedDelayingInterface[T comparable] interface {
	TypedInterface[T]
	// AddAfter adds item once duration has passed (at once if duration <= 0;
	// ignored while shutting down). If item already waits, the earlier time wins.
	AddAfter(item T, duration time.Duration)
}

// TypedDelayingQueueConfig is a plain queue's (client-go's also takes a Queue).
type TypedDelayingQueueConfig[T comparable] = TypedQueueConfig[T]

// NewTypedDelayingQueue returns an unnamed delaying queue with no metrics.
func NewTypedDelayingQueue[T comparable]() TypedDelayingInterface[T] {
	return NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{})
}

// delayingType is a Typed queue plus a min-heap of items waiting for their
// time, and one goroutine (waitingLoop) that moves them into the queue.
type delayingType[T comparable] struct {
	*Typed[T]
	// mu guards the heap. An item waits at most once; waitingByItem[x] is its entry.
	mu            sync.Mutex
	waiting       waitForPriorityQueue[T]
	waitingByItem map[T]*waitFor[T]
	wake          chan struct{} // capacity 1: "the head of waiting changed"
}

func NewTypedDelayingQueueWithConfig[T comparable](config TypedDelayingQueueConfig[T]) TypedDelayingInterface[T] {
	q := &delayingType[T]{
		Typed:         NewTypedWithConfig(config),
		waitingByItem: map[T]*waitFor[T]{},
		wake:          make(chan struct{}, 1),
	}
	q.metrics.newRetries(config.MetricsProvider, config.Name)
	q.wg.Add(1) // shutting down stops the loop: items still waiting are dropped, as in client-go
	go q.waitingLoop()
	return q
}

// waitFor is an item waiting in the heap until readyAt.
type waitFor[T any] struct {
	data    T
	readyAt time.Time
	index   int // position in the heap, kept by Swap for heap.Fix
}

// waitForPriorityQueue is a container/heap of waiting items, earliest first.
type waitForPriorityQueue[T any] []*waitFor[T]

func (pq waitForPriorityQueue[T]) Len() int           { return len(pq) }
func (pq waitForPriorityQueue[T]) Less(i, j int) bool { return pq[i].readyAt.Before(pq[j].readyAt) }
func (pq waitForPriorityQueue[T]) Swap(i, j int) {
	pq[i], pq[j] = pq[j], pq[i]
	pq[i].index, pq[j].index = i, j
}
func (pq *waitForPriorityQueue[T]) Push(x any) {
	x.(*waitFor[T]).index = len(*pq)
	*pq = append(*pq, x.(*waitFor[T]))
}
func (pq *waitForPriorityQueue[T]) Pop() any {
	e := (*pq)[len(*pq)-1]
	(*pq)[len(*pq)-1] = nil
	*pq = (*pq)[:len(*pq)-1]
	return e
}

// AddAfter puts item in the heap itself (client-go sends it over a channel to
// the loop: a hand-off per call) and wakes the loop only if item became the head.
func (q *delayingType[T]) AddAfter(item T, duration time.Duration) {
	if q.ShuttingDown() {
		return
	}
	q.metrics.retry()
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
// applies to delayed items too. Its one timer is re-armed only when the
// head's time changes: no allocation per wake-up. A stale fire only costs
// one more look at the heap.
func (q *delayingType[T]) waitingLoop() {
	defer q.wg.Done()
	timer := q.clock.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	var armedAt time.Time // zero: not armed
	var ready []T
	for {
		now := q.clock.Now()
		q.mu.Lock()
		for len(q.waiting) > 0 && !q.waiting[0].readyAt.After(now) {
			e := heap.Pop(&q.waiting).(*waitFor[T])
			delete(q.waitingByItem, e.data)
			ready = append(ready, e.data)
		}
		if len(q.waiting) == 0 && !armedAt.IsZero() {
			timer.Stop()
			armedAt = time.Time{}
		} else if len(q.waiting) > 0 && !q.waiting[0].readyAt.Equal(armedAt) {
			armedAt = q.waiting[0].readyAt
			timer.Reset(armedAt.Sub(now))
		}
		q.mu.Unlock()
		for _, item := range ready { // outside mu: AddAfter need not wait for the queue's lock
			q.Add(item)
		}
		clear(ready)
		ready = ready[:0]
		select {
		case <-q.Typed.stopCh:
			return
		case <-timer.C():
			armedAt = time.Time{}
		case <-q.wake:
		}
	}
}
