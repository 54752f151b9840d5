package watchcache

import (
	"sync"
	"time"
)

// timeBudget is how long dispatch may still wait for slow watchers before
// closing them. It holds at most max and refills at half of max per second,
// as Kubernetes' timeBudget (cacher/time_budget.go: 100 ms, refilled by
// 50 ms every second). We refill lazily from the clock rather than with a
// ticker goroutine, and start full.
type timeBudget struct {
	mu     sync.Mutex
	max    time.Duration
	left   time.Duration
	filled time.Time // when left was last brought up to date
}

func newTimeBudget(max time.Duration, now time.Time) *timeBudget {
	return &timeBudget{max: max, left: max, filled: now}
}

// take hands out everything available; give back what was not used.
func (b *timeBudget) take(now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if elapsed := now.Sub(b.filled); elapsed > 0 {
		b.left = min(b.max, b.left+time.Duration(float64(elapsed)*float64(b.max/2)/float64(time.Second)))
		b.filled = now
	}
	got := b.left
	b.left = 0
	return got
}

// giveBack returns the unused part of what take handed out.
func (b *timeBudget) giveBack(unused time.Duration) {
	if unused <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.left = min(b.max, b.left+unused)
}
