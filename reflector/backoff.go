package reflector

import (
	"math/rand/v2"
	"time"
)

// backoff grows the wait between failed ListAndWatch calls: initial, then
// doubling up to max, each with up to 100% jitter added; after resetAfter
// without a call it starts again from initial. client-go builds the same
// thing with wait.NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0).
type backoff struct {
	initial, max, resetAfter time.Duration
	current                  time.Duration
	last                     time.Time
}

func newBackoff(initial, max, resetAfter time.Duration) *backoff {
	return &backoff{initial: initial, max: max, resetAfter: resetAfter}
}

// next returns how long to wait now.
func (b *backoff) next(now time.Time) time.Duration {
	if b.current == 0 || now.Sub(b.last) > b.resetAfter {
		b.current = b.initial
	} else {
		b.current *= 2
		if b.current > b.max {
			b.current = b.max
		}
	}
	b.last = now
	return b.current + time.Duration(rand.Float64()*float64(b.current))
}
