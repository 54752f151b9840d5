package client

import (
	"math/rand/v2"
	"time"

	"kubeloop/api"
)

// Backoff describes a bounded, growing sequence of sleeps.
// client-go: k8s.io/apimachinery/pkg/util/wait.Backoff (without Cap).
type Backoff struct {
	// Steps is how many times the operation is tried in all.
	Steps int
	// Duration is the first sleep; each later one is Factor times the last.
	Duration time.Duration
	Factor   float64
	// Jitter adds up to Jitter*sleep of random extra to each sleep, so
	// clients that failed together do not retry together.
	Jitter float64
}

// DefaultRetry is for conflicts, where another writer simply got there first
// and an immediate re-read usually succeeds: 5 tries about 10 ms apart.
// client-go: util/retry.DefaultRetry.
var DefaultRetry = Backoff{Steps: 5, Duration: 10 * time.Millisecond, Factor: 1.0, Jitter: 0.1}

// DefaultBackoff is for errors that need the server to recover: 4 tries,
// 10 ms then ×5 (10, 50, 250 ms). client-go: util/retry.DefaultBackoff.
var DefaultBackoff = Backoff{Steps: 4, Duration: 10 * time.Millisecond, Factor: 5.0, Jitter: 0.1}

// next returns the sleep before the next try and advances b.
func (b *Backoff) next() time.Duration {
	d := b.Duration
	if b.Factor != 0 {
		b.Duration = time.Duration(float64(b.Duration) * b.Factor)
	}
	if b.Jitter > 0 {
		d += time.Duration(rand.Float64() * b.Jitter * float64(d))
	}
	return d
}

// OnError runs fn until it succeeds, returns an error retriable rejects, or
// backoff.Steps tries are used up; then it returns fn's last error.
// client-go: util/retry.OnError.
func OnError(backoff Backoff, retriable func(error) bool, fn func() error) error {
	var err error
	for try := 1; ; try++ {
		err = fn()
		if err == nil || !retriable(err) || try >= backoff.Steps {
			return err
		}
		time.Sleep(backoff.next())
	}
}

// RetryOnConflict runs fn (which must re-read the object, change it and
// write it) again whenever the write fails with Conflict. Use it for
// read-modify-write loops; fn must not keep state between tries.
// client-go: util/retry.RetryOnConflict.
func RetryOnConflict(backoff Backoff, fn func() error) error {
	return OnError(backoff, api.IsConflict, fn)
}
