// Package clocktest provides a manually driven workqueue.Clock, so tests of
// delays and periodic metrics never sleep: they call Step and wait for the
// effect. It plays the role of k8s.io/utils/clock/testing.FakeClock.
package clocktest

import (
	"sync"
	"time"

	"kubeloop/workqueue"
)

// FakeClock is a workqueue.Clock whose time only moves when Step or SetTime is
// called. Timers whose deadline has been reached fire during that call.
type FakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []*fakeTimer // pending timers, unordered
}

var _ workqueue.Clock = (*FakeClock)(nil)

// NewFakeClock returns a fake clock reading t.
func NewFakeClock(t time.Time) *FakeClock {
	return &FakeClock{now: t}
}

// Now returns the fake time.
func (f *FakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Since returns the fake time elapsed since t.
func (f *FakeClock) Since(t time.Time) time.Duration {
	return f.Now().Sub(t)
}

// NewTimer returns a timer that fires when the fake time reaches now+d. A
// timer with d <= 0 fires at once, like time.NewTimer.
func (f *FakeClock) NewTimer(d time.Duration) workqueue.Timer {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &fakeTimer{clock: f, deadline: f.now.Add(d), ch: make(chan time.Time, 1)}
	if d <= 0 {
		t.ch <- f.now
		return t
	}
	f.waiters = append(f.waiters, t)
	return t
}

// Step moves the fake time forward by d and fires every timer that is due.
func (f *FakeClock) Step(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.setTimeLocked(f.now.Add(d))
}

// SetTime moves the fake time to t and fires every timer that is due.
func (f *FakeClock) SetTime(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.setTimeLocked(t)
}

func (f *FakeClock) setTimeLocked(t time.Time) {
	f.now = t
	pending := f.waiters[:0]
	for _, w := range f.waiters {
		if w.deadline.After(t) {
			pending = append(pending, w)
			continue
		}
		// The channel has room for one value and a timer fires once, so
		// this never blocks.
		w.ch <- t
	}
	clear(f.waiters[len(pending):])
	f.waiters = pending
}

// Waiters reports how many timers are pending. Tests wait for the queue's
// goroutine to arm its timer before they Step past it.
func (f *FakeClock) Waiters() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiters)
}

// HasTimerAt reports whether a pending timer is due exactly at t. Tests use
// it to wait until a queue has armed the deadline they are about to step to.
func (f *FakeClock) HasTimerAt(t time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, w := range f.waiters {
		if w.deadline.Equal(t) {
			return true
		}
	}
	return false
}

// HasWaiters reports whether any timer is pending.
func (f *FakeClock) HasWaiters() bool { return f.Waiters() > 0 }

type fakeTimer struct {
	clock    *FakeClock
	deadline time.Time
	ch       chan time.Time
}

func (t *fakeTimer) C() <-chan time.Time { return t.ch }

func (t *fakeTimer) Stop() bool {
	f := t.clock
	f.mu.Lock()
	defer f.mu.Unlock()
	return t.stopLocked()
}

// Reset re-arms the timer d after the current fake time and drops a fire
// nobody received, as time.Timer.Reset does since Go 1.23.
func (t *fakeTimer) Reset(d time.Duration) bool {
	f := t.clock
	f.mu.Lock()
	defer f.mu.Unlock()
	wasPending := t.stopLocked()
	select {
	case <-t.ch:
	default:
	}
	t.deadline = f.now.Add(d)
	if d <= 0 {
		t.ch <- f.now
		return wasPending
	}
	f.waiters = append(f.waiters, t)
	return wasPending
}

func (t *fakeTimer) stopLocked() bool {
	f := t.clock
	for i, w := range f.waiters {
		if w == t {
			f.waiters = append(f.waiters[:i], f.waiters[i+1:]...)
			return true
		}
	}
	return false
}
