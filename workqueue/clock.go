package workqueue

import "time"

// Clock is the little of time the queues need. Injecting it lets tests move
// time by hand (see the clocktest package) instead of sleeping. client-go uses
// k8s.io/utils/clock.WithTicker for the same purpose.
type Clock interface {
	Now() time.Time
	Since(t time.Time) time.Duration
	// NewTimer returns a timer that delivers the time on C() once d has passed.
	NewTimer(d time.Duration) Timer
}

// Timer is a one-shot timer, shaped like *time.Timer but as an interface so a
// fake clock can provide its own.
type Timer interface {
	C() <-chan time.Time
	// Stop prevents the timer from firing; it reports whether it was still pending.
	Stop() bool
	// Reset re-arms the timer to fire d from now, discarding any pending
	// fire (time.Timer semantics since Go 1.23). Reusing one timer saves the
	// delaying queue an allocation per wake-up.
	Reset(d time.Duration) bool
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// Since returns time.Since(t).
func (RealClock) Since(t time.Time) time.Duration { return time.Since(t) }

// NewTimer wraps time.NewTimer.
func (RealClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time        { return r.t.C }
func (r realTimer) Stop() bool                 { return r.t.Stop() }
func (r realTimer) Reset(d time.Duration) bool { return r.t.Reset(d) }
