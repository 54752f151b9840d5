package workqueue

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// TypedRateLimiter decides how long an item waits before it is retried.
type TypedRateLimiter[T comparable] interface {
	When(item T) time.Duration // the wait; it counts one more retry
	Forget(item T)             // clears item's history (it succeeded)
	NumRequeues(item T) int    // retries counted for item
}

// DefaultTypedControllerRateLimiter is what Kubernetes controllers use: a
// per-item exponential backoff from 5 ms to 1000 s, bounded overall by a
// 10 qps token bucket with a burst of 100, whichever delays more.
func DefaultTypedControllerRateLimiter[T comparable]() TypedRateLimiter[T] {
	return NewTypedMaxOfRateLimiter(
		NewTypedItemExponentialFailureRateLimiter[T](5*time.Millisecond, 1000*time.Second),
		&TypedBucketRateLimiter[T]{Limiter: rate.NewLimiter(rate.Limit(10), 100)},
	)
}

// TypedBucketRateLimiter is one token bucket shared by all items: it limits
// the total retry rate, not any one item's, and keeps no per-item history.
type TypedBucketRateLimiter[T comparable] struct{ *rate.Limiter }

func (r *TypedBucketRateLimiter[T]) When(T) time.Duration { return r.Limiter.Reserve().Delay() }
func (r *TypedBucketRateLimiter[T]) NumRequeues(T) int    { return 0 }
func (r *TypedBucketRateLimiter[T]) Forget(T)             {}

// failures counts each item's failures, for the two per-item limiters.
type failures[T comparable] struct {
	mu sync.Mutex
	n  map[T]int
}

// count records one more failure and returns how many came before it.
func (f *failures[T]) count(item T) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n[item]++
	return f.n[item] - 1
}

func (f *failures[T]) NumRequeues(item T) int { f.mu.Lock(); defer f.mu.Unlock(); return f.n[item] }
func (f *failures[T]) Forget(item T)          { f.mu.Lock(); defer f.mu.Unlock(); delete(f.n, item) }

// TypedItemExponentialFailureRateLimiter delays an item base·2^n, where n is
// the number of failures counted for it so far, never more than max.
type TypedItemExponentialFailureRateLimiter[T comparable] struct {
	failures[T]
	baseDelay, maxDelay time.Duration
}

func NewTypedItemExponentialFailureRateLimiter[T comparable](baseDelay, maxDelay time.Duration) TypedRateLimiter[T] {
	return &TypedItemExponentialFailureRateLimiter[T]{failures: failures[T]{n: map[T]int{}}, baseDelay: baseDelay, maxDelay: maxDelay}
}

func (r *TypedItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	// In float64 so a large n saturates instead of wrapping around.
	backoff := float64(r.baseDelay.Nanoseconds()) * math.Pow(2, float64(r.count(item)))
	if backoff >= math.MaxInt64 {
		return r.maxDelay
	}
	return min(time.Duration(backoff), r.maxDelay)
}

// TypedItemFastSlowRateLimiter retries an item quickly maxFastAttempts
// times, then slowly.
type TypedItemFastSlowRateLimiter[T comparable] struct {
	failures[T]
	fastDelay, slowDelay time.Duration
	maxFastAttempts      int
}

func NewTypedItemFastSlowRateLimiter[T comparable](fastDelay, slowDelay time.Duration, maxFastAttempts int) TypedRateLimiter[T] {
	return &TypedItemFastSlowRateLimiter[T]{failures: failures[T]{n: map[T]int{}}, fastDelay: fastDelay, slowDelay: slowDelay, maxFastAttempts: maxFastAttempts}
}

func (r *TypedItemFastSlowRateLimiter[T]) When(item T) time.Duration {
	if r.count(item) < r.maxFastAttempts { // the maxFastAttempts-th call is still fast
		return r.fastDelay
	}
	return r.slowDelay
}

// TypedMaxOfRateLimiter asks every limiter (so each counts the retry); the
// longest delay wins.
type TypedMaxOfRateLimiter[T comparable] struct {
	limiters []TypedRateLimiter[T]
}

func NewTypedMaxOfRateLimiter[T comparable](limiters ...TypedRateLimiter[T]) TypedRateLimiter[T] {
	return &TypedMaxOfRateLimiter[T]{limiters: limiters}
}

func (r *TypedMaxOfRateLimiter[T]) When(item T) time.Duration {
	var longest time.Duration
	for _, l := range r.limiters {
		longest = max(longest, l.When(item))
	}
	return longest
}

func (r *TypedMaxOfRateLimiter[T]) NumRequeues(item T) int {
	most := 0
	for _, l := range r.limiters {
		most = max(most, l.NumRequeues(item))
	}
	return most
}

func (r *TypedMaxOfRateLimiter[T]) Forget(item T) {
	for _, l := range r.limiters {
		l.Forget(item)
	}
}
