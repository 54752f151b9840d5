package kubelet

import (
	"sync"
	"time"
)

// backOff is the crash-loop back-off: per container, the delay doubles with
// every restart, from base to max, and is measured from the moment the
// container last exited. Kubernetes: client-go util/flowcontrol.Backoff as
// used by kuberuntime's doBackOff (10 s doubling to 5 min).
type backOff struct {
	base, max time.Duration

	mu sync.Mutex
	// entries maps "podUID/container" to its current delay and when the
	// delay was last raised; an entry idle for twice max is reset.
	entries map[string]*backOffEntry
}

type backOffEntry struct {
	delay    time.Duration
	lastBump time.Time
}

func newBackOff(base, max time.Duration) *backOff {
	return &backOff{base: base, max: max, entries: map[string]*backOffEntry{}}
}

// inBackOffSince reports whether a restart of key must still wait, given
// that the container exited at finishedAt, and how long it must wait.
func (b *backOff) inBackOffSince(key string, finishedAt, now time.Time) (bool, time.Duration, time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.entries[key]
	if !ok || now.Sub(e.lastBump) > 2*b.max {
		return false, 0, 0
	}
	wait := finishedAt.Add(e.delay).Sub(now)
	return wait > 0, wait, e.delay
}

// next records a restart of key: the first one costs base, each later one
// twice the previous, up to max.
func (b *backOff) next(key string, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.entries[key]
	if !ok || now.Sub(e.lastBump) > 2*b.max {
		b.entries[key] = &backOffEntry{delay: b.base, lastBump: now}
		return
	}
	e.delay = min(2*e.delay, b.max)
	e.lastBump = now
}

// forgetPod drops every entry of a pod that is gone.
func (b *backOff) forgetPod(uid string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for key := range b.entries {
		if len(key) > len(uid) && key[:len(uid)] == uid && key[len(uid)] == '/' {
			delete(b.entries, key)
		}
	}
}
