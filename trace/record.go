package trace

import "sync"

// Recorder collects the events a filter takes, for a program or a test that
// wants the whole trace once something has happened.
type Recorder struct {
	sub  *Subscription
	done chan struct{}

	mu     sync.Mutex
	events []Event
}

// recorderBuffer is large enough that a recorder keeping up with its
// channel never drops: the drain is one goroutine appending to a slice.
const recorderBuffer = 1 << 16

// Record switches the trace on and collects until Stop.
func Record(filter func(*Event) bool) *Recorder {
	r := &Recorder{sub: Subscribe(recorderBuffer, filter), done: make(chan struct{})}
	go r.drain()
	return r
}

func (r *Recorder) drain() {
	for {
		select {
		case <-r.done:
			return
		case e := <-r.sub.C:
			r.mu.Lock()
			r.events = append(r.events, e)
			r.mu.Unlock()
		}
	}
}

// Events is a copy of what was collected so far.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

// Dropped is how many events were lost to a full buffer.
func (r *Recorder) Dropped() int64 { return r.sub.Dropped() }

// Stop ends the recording (and switches the trace off if no one else
// listens). Events still in the channel are collected first.
func (r *Recorder) Stop() {
	r.sub.Close()
	close(r.done)
	for {
		select {
		case e := <-r.sub.C:
			r.mu.Lock()
			r.events = append(r.events, e)
			r.mu.Unlock()
		default:
			return
		}
	}
}
