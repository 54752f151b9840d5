//go:build exercise || solution

package ratelimiter

import (
	"math"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/workqueue"
	"kubeloop/workqueue/clocktest"
)

const ms = time.Millisecond

// The same bounds as workqueue.DefaultTypedControllerRateLimiter.
func newDefault() *ItemExponentialFailureRateLimiter {
	return NewItemExponentialFailureRateLimiter(5*ms, 1000*time.Second)
}

func TestDelayDoublesFromBase(t *testing.T) {
	l := newDefault()
	for i, want := range []time.Duration{5 * ms, 10 * ms, 20 * ms, 40 * ms, 80 * ms} {
		assert.Equal(t, want, l.When("a"), "delay of failure %d", i+1)
	}
}

func TestNumRequeuesCountsEveryWhen(t *testing.T) {
	l := newDefault()
	assert.Equal(t, 0, l.NumRequeues("a"), "an item never seen has no requeues")
	for i := range 4 {
		l.When("a")
		assert.Equal(t, i+1, l.NumRequeues("a"))
	}
}

func TestItemsBackOffIndependently(t *testing.T) {
	l := newDefault()
	l.When("a")
	l.When("a")
	l.When("a")
	assert.Equal(t, 5*ms, l.When("b"), "b's first failure waits the base delay whatever a did")
	assert.Equal(t, 1, l.NumRequeues("b"))
	assert.Equal(t, 3, l.NumRequeues("a"))
}

func TestDelayIsCappedAtMax(t *testing.T) {
	l := NewItemExponentialFailureRateLimiter(ms, 5*ms)
	var got []time.Duration
	for range 6 {
		got = append(got, l.When("a"))
	}
	assert.Equal(t, []time.Duration{ms, 2 * ms, 4 * ms, 5 * ms, 5 * ms, 5 * ms}, got)
}

func TestForgetStartsTheItemOver(t *testing.T) {
	l := newDefault()
	l.When("a")
	l.When("a")
	l.When("b")
	l.Forget("a")
	assert.Equal(t, 0, l.NumRequeues("a"))
	assert.Equal(t, 5*ms, l.When("a"), "after Forget the base delay again")
	assert.Equal(t, 1, l.NumRequeues("b"), "Forget touches only its item")
	l.Forget("never-seen") // must not panic
	assert.Equal(t, 0, l.NumRequeues("never-seen"))
}

// A controller retries a broken key for as long as it stays broken: after a
// few dozen failures base·2^n no longer fits in an int64 of nanoseconds.
// A shift or a product that wraps around would make the key retry at once,
// in a hot loop, exactly when it should wait longest.
func TestHugeBackoffReturnsMaxInsteadOfOverflowing(t *testing.T) {
	l := newDefault()
	prev := time.Duration(0)
	for i := range 200 {
		d := l.When("a")
		require.GreaterOrEqual(t, d, prev, "failure %d waits less than failure %d", i+1, i)
		require.LessOrEqual(t, d, 1000*time.Second, "failure %d exceeds the max", i+1)
		prev = d
	}
	assert.Equal(t, 1000*time.Second, prev)

	huge := NewItemExponentialFailureRateLimiter(time.Hour, time.Duration(math.MaxInt64))
	for i := range 100 {
		d := huge.When("a")
		require.Positive(t, d, "failure %d wrapped around", i+1)
	}
	assert.Equal(t, time.Duration(math.MaxInt64), huge.When("a"))
}

// Workers of one controller share the limiter.
func TestConcurrentWhenLosesNoCount(t *testing.T) {
	l := newDefault()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				l.When("a")
				l.NumRequeues("a")
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 800, l.NumRequeues("a"))
}

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// stepTo waits until the queue has armed a timer for deadline, then moves
// the fake clock there, so the step never races the queue's goroutine.
func stepTo(t *testing.T, clk *clocktest.FakeClock, deadline time.Time) {
	t.Helper()
	require.Eventually(t, func() bool { return clk.HasTimerAt(deadline) }, 10*time.Second, ms,
		"the queue never waited until %s: AddRateLimited did not get that delay from When",
		deadline.Sub(epoch))
	clk.SetTime(deadline)
}

// The limiter in its real place: AddRateLimited asks it how long to wait,
// Forget (on success) resets it.
func TestRateLimitingQueueWaitsForTheLimitersDelay(t *testing.T) {
	clk := clocktest.NewFakeClock(epoch)
	l := newDefault()
	q := workqueue.NewTypedRateLimitingQueueWithConfig[string](l,
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "exercise", Clock: clk})
	defer q.ShutDown()

	q.AddRateLimited("key")
	require.Equal(t, 0, q.Len(), "a first failure waits 5ms, it is not queued at once")
	require.Equal(t, 1, q.NumRequeues("key"))
	stepTo(t, clk, epoch.Add(5*ms))
	require.Eventually(t, func() bool { return q.Len() == 1 }, 10*time.Second, ms)
	key, _ := q.Get()
	q.Done(key)

	// It fails again: 10ms from now.
	q.AddRateLimited("key")
	require.Equal(t, 0, q.Len())
	clk.Step(9 * ms)
	require.Equal(t, 0, q.Len(), "9ms into a 10ms wait the key is still waiting")
	stepTo(t, clk, epoch.Add(15*ms))
	require.Eventually(t, func() bool { return q.Len() == 1 }, 10*time.Second, ms)
	key, _ = q.Get()
	q.Done(key)

	// It succeeds: the controller calls Forget, and the next failure is a
	// first failure again.
	q.Forget("key")
	require.Equal(t, 0, q.NumRequeues("key"))
	q.AddRateLimited("key")
	stepTo(t, clk, epoch.Add(20*ms))
	require.Eventually(t, func() bool { return q.Len() == 1 }, 10*time.Second, ms)
}
