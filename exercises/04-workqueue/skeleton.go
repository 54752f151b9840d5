package queue

import (
	"sync"

	"kubeloop/workqueue"
)

// Queue is a work queue of string keys ("namespace/name"). Add marks a key
// as needing work; Get hands a key to one worker; Done says the worker has
// finished with it. The fields are the whole state: you may add to them,
// but the grader only uses New and the methods of workqueue.TypedInterface.
type Queue struct {
	// mu guards every field below. cond (on mu) is where Get waits for a
	// key and ShutDownWithDrain waits for the workers to finish.
	mu   sync.Mutex
	cond *sync.Cond

	// The invariants every method must keep:
	//   - queue holds each key at most once, oldest first;
	//   - every key in queue is in dirty and not in processing;
	//   - a key in both dirty and processing was added while a worker had
	//     it: it waits outside queue, and Done puts it there.
	queue      []string
	dirty      map[string]struct{}
	processing map[string]struct{}

	// shuttingDown makes Add ignore new keys; Get hands out what is
	// queued, then reports shutdown.
	shuttingDown bool
	// drain is true while a ShutDownWithDrain waits for processing to
	// empty; ShutDown clears it to release that wait.
	drain bool
}

// The grader uses the queue through the interface kubeloop's controllers
// use, so it must satisfy it.
var _ workqueue.TypedInterface[string] = (*Queue)(nil)

// New returns an empty queue.
func New() *Queue {
	q := &Queue{
		dirty:      map[string]struct{}{},
		processing: map[string]struct{}{},
	}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Len is the number of keys waiting to be handed out; keys being processed
// do not count.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.queue)
}

// ShuttingDown reports whether ShutDown or ShutDownWithDrain was called.
func (q *Queue) ShuttingDown() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.shuttingDown
}
