package workqueue_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/workqueue"
	"kubeloop/workqueue/clocktest"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newFakeDelayingQueue(t *testing.T) (*clocktest.FakeClock, workqueue.TypedDelayingInterface[string]) {
	t.Helper()
	clk := clocktest.NewFakeClock(epoch)
	q := workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[string]{Clock: clk})
	t.Cleanup(q.ShutDown)
	return clk, q
}

// stepTo waits until the queue's loop has armed a timer for deadline, then
// moves the fake clock there, so the step can never race the arming.
func stepTo(t *testing.T, clk *clocktest.FakeClock, deadline time.Time) {
	t.Helper()
	require.Eventually(t, func() bool { return clk.HasTimerAt(deadline) }, eventually, tick,
		"no timer armed for %s", deadline.Sub(epoch))
	clk.SetTime(deadline)
}

func waitForLen[T comparable](t *testing.T, q workqueue.TypedInterface[T], n int) {
	t.Helper()
	require.Eventually(t, func() bool { return q.Len() == n }, eventually, tick)
}

// Reference 7: the item is added when its time comes, not before.
func TestAddAfterAddsWhenDue(t *testing.T) {
	clk, q := newFakeDelayingQueue(t)
	q.AddAfter("a", time.Second)
	assert.Equal(t, 0, q.Len())

	require.Eventually(t, func() bool { return clk.HasTimerAt(epoch.Add(time.Second)) }, eventually, tick)
	clk.Step(999 * time.Millisecond)
	assert.Equal(t, 0, q.Len(), "not due yet")
	clk.Step(time.Millisecond)
	waitForLen(t, q, 1)
	assert.Equal(t, "a", mustGet(t, q))
}

// Reference 7: d <= 0 is a plain Add.
func TestAddAfterNonPositiveAddsNow(t *testing.T) {
	_, q := newFakeDelayingQueue(t)
	q.AddAfter("zero", 0)
	q.AddAfter("negative", -time.Second)
	assert.Equal(t, 2, q.Len(), "added synchronously, without the clock moving")
}

// Reference 7: ignored while shutting down.
func TestAddAfterIgnoredWhileShuttingDown(t *testing.T) {
	_, q := newFakeDelayingQueue(t)
	q.ShutDown()
	q.AddAfter("a", 0)
	q.AddAfter("b", time.Second)
	assert.Equal(t, 0, q.Len())
}

// Reference 7: a second AddAfter for a waiting item keeps the earliest time.
func TestAddAfterKeepsEarliestTime(t *testing.T) {
	clk, q := newFakeDelayingQueue(t)
	q.AddAfter("a", 10*time.Second)
	q.AddAfter("a", time.Second)
	q.AddAfter("a", 5*time.Second) // later than the pending 1 s: ignored

	stepTo(t, clk, epoch.Add(time.Second))
	waitForLen(t, q, 1)
	assert.Equal(t, "a", mustGet(t, q))
	q.Done("a")

	clk.SetTime(epoch.Add(time.Minute))
	assert.Never(t, func() bool { return q.Len() > 0 }, 50*time.Millisecond, tick,
		"the later times must have been dropped, not kept as second entries")
}

// Reference 7: items come out in order of ready time, whatever the order of AddAfter.
func TestAddAfterOrdersByReadyTime(t *testing.T) {
	clk, q := newFakeDelayingQueue(t)
	q.AddAfter("c", 3*time.Second)
	q.AddAfter("a", time.Second)
	q.AddAfter("b", 2*time.Second)

	for i, want := range []string{"a", "b", "c"} {
		stepTo(t, clk, epoch.Add(time.Duration(i+1)*time.Second))
		waitForLen(t, q, 1)
		assert.Equal(t, want, mustGet(t, q))
	}
}

// Reference 7: a ready item goes through Add, so dedup applies.
func TestAddAfterReadyItemIsDeduped(t *testing.T) {
	clk, q := newFakeDelayingQueue(t)
	q.Add("a")
	q.AddAfter("a", time.Second)
	q.AddAfter("marker", 2*time.Second)
	stepTo(t, clk, epoch.Add(time.Second))
	stepTo(t, clk, epoch.Add(2*time.Second))
	// Once the marker is queued, the delayed "a" has been through Add.
	waitForLen(t, q, 2)
	assert.Equal(t, "a", mustGet(t, q))
	assert.Equal(t, "marker", mustGet(t, q))
	assert.Equal(t, 0, q.Len())
}

// Reference 7: Add does not cancel a pending AddAfter.
func TestAddDoesNotCancelPendingAddAfter(t *testing.T) {
	clk, q := newFakeDelayingQueue(t)
	q.AddAfter("a", time.Second)
	q.Add("a")
	assert.Equal(t, 1, q.Len())
	assert.Equal(t, "a", mustGet(t, q))
	q.Done("a")

	stepTo(t, clk, epoch.Add(time.Second))
	waitForLen(t, q, 1)
	assert.Equal(t, "a", mustGet(t, q), "the delayed add still happens")
}

// ShutDown stops the waiting loop: items still waiting are dropped.
func TestShutDownDropsWaitingItems(t *testing.T) {
	clk, q := newFakeDelayingQueue(t)
	q.AddAfter("a", time.Second)
	require.Eventually(t, clk.HasWaiters, eventually, tick)
	q.ShutDown()
	assert.False(t, clk.HasWaiters(), "the loop's timer is stopped on shut down")
	clk.Step(time.Hour)
	_, shutdown := q.Get()
	assert.True(t, shutdown)
}
