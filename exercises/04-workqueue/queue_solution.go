//go:build solution

package queue

// Add looks at dirty before processing: a key that is already dirty is
// either queued or waiting for its Done, and in both cases the worker that
// gets it next will see the latest state. That is what coalescing means.
func (q *Queue) Add(item string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown {
		return
	}
	if _, ok := q.dirty[item]; ok {
		return
	}
	q.dirty[item] = struct{}{}
	if _, ok := q.processing[item]; ok {
		return // Done queues it: one worker per key
	}
	q.queue = append(q.queue, item)
	q.cond.Signal()
}

// Get clears dirty as it hands the key out: an Add from now on means
// "changed since this worker started", and must be processed again.
func (q *Queue) Get() (item string, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.queue) == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if len(q.queue) == 0 {
		return "", true // shutting down and drained
	}
	item = q.queue[0]
	q.queue[0] = "" // do not keep the string alive in the array
	q.queue = q.queue[1:]
	q.processing[item] = struct{}{}
	delete(q.dirty, item)
	return item, false
}

// Done ignores a key that is not being processed, so a second Done cannot
// queue a key twice.
func (q *Queue) Done(item string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.processing[item]; !ok {
		return
	}
	delete(q.processing, item)
	if _, ok := q.dirty[item]; ok {
		q.queue = append(q.queue, item)
		q.cond.Signal()
	}
	if len(q.processing) == 0 && q.drain {
		q.cond.Broadcast() // wake ShutDownWithDrain
	}
}

// ShutDown broadcasts: every waiting Get must wake and see shuttingDown,
// not only one of them.
func (q *Queue) ShutDown() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.drain = false
	q.shuttingDown = true
	q.cond.Broadcast()
}

// ShutDownWithDrain waits on the same cond as Get; while shutting down no
// Get waits on it, so Done's Broadcast can only be for this wait.
func (q *Queue) ShutDownWithDrain() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.drain = true
	q.shuttingDown = true
	q.cond.Broadcast()
	for len(q.processing) != 0 && q.drain {
		q.cond.Wait()
	}
}
