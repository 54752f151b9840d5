//go:build !solution

package ratelimiter

import "time"

// This is your file. Replace each TODO body; keep the signatures.
// Run the grader with: go test -tags exercise ./exercises/01-ratelimiter/

// When counts one more failure of item and returns how long it must wait:
// baseDelay the first time, then twice as long each time, capped at
// maxDelay. A delay too large for a time.Duration must come out as maxDelay,
// never as a wrapped-around (negative or tiny) number.
func (r *ItemExponentialFailureRateLimiter) When(item string) time.Duration {
	// TODO: look up the failures so far, count this one, compute the delay.
	return 0
}

// Forget clears item's history: its next When returns baseDelay again.
func (r *ItemExponentialFailureRateLimiter) Forget(item string) {
	// TODO: drop item's failure count.
}

// NumRequeues is how many times When was called for item since its last
// Forget.
func (r *ItemExponentialFailureRateLimiter) NumRequeues(item string) int {
	// TODO: report item's failure count.
	return 0
}
