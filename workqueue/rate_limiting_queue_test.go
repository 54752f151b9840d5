package workqueue_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"kubeloop/workqueue"
	"kubeloop/workqueue/clocktest"
)

const ms = time.Millisecond

// Reference 8: AddRateLimited = AddAfter(When); Forget and NumRequeues pass through.
func TestAddRateLimitedDelaysByLimiter(t *testing.T) {
	clk := clocktest.NewFakeClock(epoch)
	limiter := workqueue.NewTypedItemExponentialFailureRateLimiter[string](ms, time.Second)
	q := workqueue.NewTypedRateLimitingQueueWithConfig(limiter, workqueue.TypedRateLimitingQueueConfig[string]{Clock: clk})
	defer q.ShutDown()

	q.AddRateLimited("a") // 1 ms
	q.AddRateLimited("a") // 2 ms, later: the pending 1 ms is kept
	assert.Equal(t, 2, q.NumRequeues("a"))
	assert.Equal(t, 0, q.Len())

	stepTo(t, clk, epoch.Add(ms))
	waitForLen(t, q, 1)

	q.Forget("a")
	assert.Equal(t, 0, q.NumRequeues("a"))
	assert.Equal(t, 0, limiter.NumRequeues("a"), "Forget reaches the limiter")
}

// Reference 8: Forget does not cancel a pending delay.
func TestForgetDoesNotCancelPendingDelay(t *testing.T) {
	clk := clocktest.NewFakeClock(epoch)
	q := workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Second, time.Minute),
		workqueue.TypedRateLimitingQueueConfig[string]{Clock: clk})
	defer q.ShutDown()

	q.AddRateLimited("a")
	q.Forget("a")
	stepTo(t, clk, epoch.Add(time.Second))
	waitForLen(t, q, 1)
	assert.Equal(t, "a", mustGet(t, q))
}

// Reference 9: base·2^n, counting each When; NumRequeues counts; Forget resets.
func TestExponentialLimiterDoublesFromBase(t *testing.T) {
	l := workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*ms, 1000*time.Second)
	for i, want := range []time.Duration{5 * ms, 10 * ms, 20 * ms, 40 * ms, 80 * ms} {
		assert.Equal(t, want, l.When("a"))
		assert.Equal(t, i+1, l.NumRequeues("a"))
	}
	assert.Equal(t, 5*ms, l.When("b"), "items back off independently")

	l.Forget("a")
	assert.Equal(t, 0, l.NumRequeues("a"))
	assert.Equal(t, 5*ms, l.When("a"))
}

// Reference 9: capped at max.
func TestExponentialLimiterCapsAtMax(t *testing.T) {
	l := workqueue.NewTypedItemExponentialFailureRateLimiter[string](ms, 5*ms)
	got := []time.Duration{l.When("a"), l.When("a"), l.When("a"), l.When("a"), l.When("a")}
	assert.Equal(t, []time.Duration{ms, 2 * ms, 4 * ms, 5 * ms, 5 * ms}, got)
}

// Reference 9: a backoff that overflows int64 returns max instead of wrapping.
func TestExponentialLimiterOverflowReturnsMax(t *testing.T) {
	maxDelay := time.Duration(math.MaxInt64)
	l := workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Hour, maxDelay)
	for range 100 {
		d := l.When("a")
		require.Positive(t, d, "backoff must never wrap negative")
	}
	assert.Equal(t, maxDelay, l.When("a"))

	l = workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Hour, 1000*time.Second)
	for range 1100 { // 2^1100 is +Inf in float64
		require.Equal(t, 1000*time.Second, l.When("b"))
	}
}

// Reference 10: count first; fast while count <= maxFastAttempts, then slow.
func TestFastSlowLimiter(t *testing.T) {
	l := workqueue.NewTypedItemFastSlowRateLimiter[string](5*ms, 10*time.Second, 3)
	got := []time.Duration{l.When("a"), l.When("a"), l.When("a"), l.When("a"), l.When("a")}
	assert.Equal(t, []time.Duration{5 * ms, 5 * ms, 5 * ms, 10 * time.Second, 10 * time.Second}, got)
	assert.Equal(t, 5, l.NumRequeues("a"))
	assert.Equal(t, 5*ms, l.When("b"))

	l.Forget("a")
	assert.Equal(t, 0, l.NumRequeues("a"))
	assert.Equal(t, 5*ms, l.When("a"))
}

// Reference 11: 10 qps burst 100 → 100 free calls, then ~100 ms apart; NumRequeues 0.
func TestBucketLimiterBurstThenSpaced(t *testing.T) {
	l := &workqueue.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Limit(10), 100)}
	for i := range 100 {
		require.Zero(t, l.When("a"), "call %d is inside the burst", i+1)
	}
	// The bucket uses wall time, so allow for the time the loop above took.
	const slack = 50 * ms
	assert.InDelta(t, float64(100*ms), float64(l.When("a")), float64(slack))
	assert.InDelta(t, float64(200*ms), float64(l.When("b")), float64(slack), "the bucket is shared by all items")
	assert.Equal(t, 0, l.NumRequeues("a"))
	l.Forget("a")
	assert.InDelta(t, float64(300*ms), float64(l.When("a")), float64(slack), "Forget does not refill the bucket")
}

// Reference 12: When asks every limiter and returns the max; NumRequeues is the max; Forget reaches all.
func TestMaxOfLimiterTakesLongestDelay(t *testing.T) {
	fastSlow := workqueue.NewTypedItemFastSlowRateLimiter[string](5*ms, 3*time.Second, 3)
	expo := workqueue.NewTypedItemExponentialFailureRateLimiter[string](ms, time.Second)
	l := workqueue.NewTypedMaxOfRateLimiter(expo, fastSlow)

	want := []time.Duration{5 * ms, 5 * ms, 5 * ms, 3 * time.Second, 3 * time.Second}
	for i, w := range want {
		assert.Equal(t, w, l.When("a"), "call %d", i+1)
	}
	assert.Equal(t, 5, l.NumRequeues("a"))
	assert.Equal(t, 5, expo.NumRequeues("a"), "every limiter counted every call")

	l.Forget("a")
	assert.Equal(t, 0, expo.NumRequeues("a"))
	assert.Equal(t, 0, fastSlow.NumRequeues("a"))
	assert.Equal(t, 0, l.NumRequeues("a"))
}

// Reference 12: the default controller limiter is exponential 5 ms..1000 s under a 10 qps/100 bucket.
func TestDefaultControllerRateLimiter(t *testing.T) {
	l := workqueue.DefaultTypedControllerRateLimiter[string]()
	assert.Equal(t, 5*ms, l.When("a"))
	assert.Equal(t, 10*ms, l.When("a"))
	assert.Equal(t, 20*ms, l.When("a"))
	assert.Equal(t, 3, l.NumRequeues("a"))
	for range 97 { // drain the rest of the burst with fresh items
		l.When("other")
	}
	// The bucket now dominates a fresh item's 5 ms.
	assert.InDelta(t, float64(100*ms), float64(l.When("fresh")), float64(50*ms))
	l.Forget("a")
	assert.Equal(t, 0, l.NumRequeues("a"))
}
