package reflector

import (
	"math/rand/v2"
	"time"
)

// Backoff grows the wait between failed list-watch attempts: Initial, then
// doubling up to Cap, each with up to 100% jitter added; after ResetAfter
// without a failure it starts again from Initial. The reflector and the
// watch cache (which in Kubernetes runs a client-go Reflector) both use it.
// client-go builds the same thing with
// wait.NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0).
type Backoff struct {
	Initial, Cap, ResetAfter time.Duration

	current time.Duration
	last    time.Time
}

// Next returns how long to wait after a failure at now.
func (b *Backoff) Next(now time.Time) time.Duration {
	if b.current == 0 || now.Sub(b.last) > b.ResetAfter {
		b.current = b.Initial
	} else {
		b.current = min(2*b.current, b.Cap)
	}
	b.last = now
	return b.current + time.Duration(rand.Float64()*float64(b.current))
}
