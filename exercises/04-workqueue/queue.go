//go:build !solution

package queue

// This is your file. Replace each TODO body; keep the signatures.
// Run the grader with: go test -tags exercise ./exercises/04-workqueue/

// Add marks item as needing work. It does nothing while shutting down or
// when item is already dirty. A key a worker is processing must not be
// queued (a second worker would get it): it stays dirty, and Done queues
// it.
func (q *Queue) Add(item string) {
	// TODO: check shuttingDown and dirty, mark dirty, queue unless processing.
}

// Get blocks until a key is queued, moves it from dirty to processing and
// returns it. Once the queue is shutting down and nothing is queued it
// returns shutdown=true at once.
func (q *Queue) Get() (item string, shutdown bool) {
	// TODO: wait on q.cond while there is nothing to hand out.
	return "", true
}

// Done ends the processing of item. If item was added meanwhile (it is
// dirty) it goes back into the queue now. If a ShutDownWithDrain is waiting
// and this was the last key being processed, wake it.
func (q *Queue) Done(item string) {
	// TODO: leave processing; requeue if dirty; wake a drain.
}

// ShutDown makes Add ignore new keys and wakes every waiting Get. It also
// releases a ShutDownWithDrain that is waiting.
func (q *Queue) ShutDown() {
	// TODO: set the flags, wake everyone.
}

// ShutDownWithDrain is ShutDown that also waits until every key handed
// out has been marked Done (or until a ShutDown releases it).
func (q *Queue) ShutDownWithDrain() {
	// TODO: like ShutDown, then wait while anything is being processed.
}
