//go:build solution

package ratelimiter

import "time"

// When doubles by repeated multiplication rather than with math.Pow or a
// shift: stopping as soon as the next doubling would pass maxDelay means
// no intermediate value can overflow, and the loop runs at most ~63 times
// however many failures an item has had.
func (r *ItemExponentialFailureRateLimiter) When(item string) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.failures[item]
	r.failures[item] = n + 1

	if r.baseDelay <= 0 {
		return 0
	}
	delay := min(r.baseDelay, r.maxDelay)
	for range n {
		if delay > r.maxDelay/2 {
			return r.maxDelay
		}
		delay *= 2
	}
	return delay
}

// Forget deletes the entry instead of zeroing it, so the map does not grow
// with every key a controller has ever retried.
func (r *ItemExponentialFailureRateLimiter) Forget(item string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.failures, item)
}

// NumRequeues reads the count under the same lock When writes it.
func (r *ItemExponentialFailureRateLimiter) NumRequeues(item string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failures[item]
}
