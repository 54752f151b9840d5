package workqueue

import "time"

// Clock is the little of time the queues need; injecting it lets tests move
// time by hand (package clocktest) instead of sleeping. client-go uses
// k8s.io/utils/clock.WithTicker for the same purpose.
type Clock interface {
	Now() time.Time
	Since(t time.Time) time.Duration
	NewTimer(d time.Duration) Timer
}

// Timer is *time.Timer as an interface, so a fake clock can provide its own.
// Reset discards a pending fire (time.Timer semantics since Go 1.23).
type Timer interface {
	C() <-chan time.Time
	Stop() bool
	Reset(d time.Duration) bool
}

// RealClock is the wall clock.
type RealClock struct{}

func (RealClock) Now() time.Time                  { return time.Now() }
func (RealClock) Since(t time.Time) time.Duration { return time.Since(t) }
func (RealClock) NewTimer(d time.Duration) Timer  { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time        { return r.t.C }
func (r realTimer) Stop() bool                 { return r.t.Stop() }
func (r realTimer) Reset(d time.Duration) bool { return r.t.Reset(d) }
