package workqueue

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// TypedRateLimiter decides how long an item waits before it is retried.
type TypedRateLimiter[T comparable] interface {
	// When returns how long item should wait, and counts one more retry.
	When(item T) time.Duration
	// Forget clears item's history (it succeeded).
	Forget(item T)
	// NumRequeues is how many retries of item have been counted.
	NumRequeues(item T) int
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
// the total retry rate, not any one item's.
type TypedBucketRateLimiter[T comparable] struct {
	*rate.Limiter
}

// When reserves a token and returns how long until it is available.
func (r *TypedBucketRateLimiter[T]) When(T) time.Duration {
	return r.Limiter.Reserve().Delay()
}

// NumRequeues is always 0: the bucket keeps no per-item history.
func (r *TypedBucketRateLimiter[T]) NumRequeues(T) int { return 0 }

// Forget does nothing: the bucket keeps no per-item history.
func (r *TypedBucketRateLimiter[T]) Forget(T) {}

// TypedItemExponentialFailureRateLimiter delays an item base·2^n, where n is
// the number of failures counted for it so far, never more than max.
type TypedItemExponentialFailureRateLimiter[T comparable] struct {
	mu       sync.Mutex
	failures map[T]int

	baseDelay time.Duration
	maxDelay  time.Duration
}

// NewTypedItemExponentialFailureRateLimiter returns an exponential limiter.
func NewTypedItemExponentialFailureRateLimiter[T comparable](baseDelay, maxDelay time.Duration) TypedRateLimiter[T] {
	return &TypedItemExponentialFailureRateLimiter[T]{
		failures:  map[T]int{},
		baseDelay: baseDelay,
		maxDelay:  maxDelay,
	}
}

func (r *TypedItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.failures[item]
	r.failures[item] = n + 1

	// Compute in float64 so a large n saturates instead of wrapping around.
	backoff := float64(r.baseDelay.Nanoseconds()) * math.Pow(2, float64(n))
	if backoff >= math.MaxInt64 {
		return r.maxDelay
	}
	return min(time.Duration(backoff), r.maxDelay)
}

func (r *TypedItemExponentialFailureRateLimiter[T]) NumRequeues(item T) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failures[item]
}

func (r *TypedItemExponentialFailureRateLimiter[T]) Forget(item T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.failures, item)
}

// TypedItemFastSlowRateLimiter retries an item quickly maxFastAttempts
// times, then slowly.
type TypedItemFastSlowRateLimiter[T comparable] struct {
	mu       sync.Mutex
	failures map[T]int

	maxFastAttempts int
	fastDelay       time.Duration
	slowDelay       time.Duration
}

// NewTypedItemFastSlowRateLimiter returns a fast/slow limiter.
func NewTypedItemFastSlowRateLimiter[T comparable](fastDelay, slowDelay time.Duration, maxFastAttempts int) TypedRateLimiter[T] {
	return &TypedItemFastSlowRateLimiter[T]{
		failures:        map[T]int{},
		maxFastAttempts: maxFastAttempts,
		fastDelay:       fastDelay,
		slowDelay:       slowDelay,
	}
}

func (r *TypedItemFastSlowRateLimiter[T]) When(item T) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	// Count first: the maxFastAttempts-th call is still fast.
	r.failures[item]++
	if r.failures[item] <= r.maxFastAttempts {
		return r.fastDelay
	}
	return r.slowDelay
}

func (r *TypedItemFastSlowRateLimiter[T]) NumRequeues(item T) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failures[item]
}

func (r *TypedItemFastSlowRateLimiter[T]) Forget(item T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.failures, item)
}

// TypedMaxOfRateLimiter combines limiters: the longest delay wins.
type TypedMaxOfRateLimiter[T comparable] struct {
	limiters []TypedRateLimiter[T]
}

// NewTypedMaxOfRateLimiter returns a limiter that asks every limiter.
func NewTypedMaxOfRateLimiter[T comparable](limiters ...TypedRateLimiter[T]) TypedRateLimiter[T] {
	return &TypedMaxOfRateLimiter[T]{limiters: limiters}
}

// When asks every limiter (so each counts the retry) and returns the maximum.
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
