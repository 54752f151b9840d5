package reflector

import (
	"math/rand/v2"
	"time"
)

// Backoff grows the wait between failed list-watches (the reflector's and
// the watch cache's): Initial, doubling up to Cap, plus up to 100% jitter;
// from Initial again after ResetAfter without a failure. client-go's:
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
