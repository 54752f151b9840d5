package workqueue_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubeloop/workqueue"
	"kubeloop/workqueue/clocktest"
)

// Reading path, step 6 (docs/reading-path.md): the workqueue sets the
// controller's tempo. The handler adds default/web three times while a
// worker is busy with it: the key is queued once (dirty), is not handed to
// a second worker while the first holds it (processing), and comes back
// after Done. A failed reconcile returns the key through AddRateLimited
// after 5 ms, then 10 ms: exponential backoff per key, reset by Forget.
// Break in Typed.Add, Typed.Get and Typed.Done (workqueue/queue.go).
func TestReadingPathStep6WorkqueueDedupsAndBacksOff(t *testing.T) {
	clk := clocktest.NewFakeClock(epoch)
	q := workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*ms, time.Second),
		workqueue.TypedRateLimitingQueueConfig[string]{Clock: clk})
	defer q.ShutDown()

	q.Add("default/web")
	q.Add("default/web")
	assert.Equal(t, 1, q.Len(), "a key waits in the queue at most once")
	key := mustGet(t, q) // a worker takes it
	q.Add("default/web") // an event arrives during the reconcile
	assert.Equal(t, 0, q.Len(), "a key being processed is not handed to a second worker")
	q.Done(key)
	assert.Equal(t, 1, q.Len(), "Done puts back the key that was added meanwhile")
	key = mustGet(t, q)

	// The reconcile fails: the key comes back after 5 ms, then 10 ms.
	q.AddRateLimited(key)
	q.Done(key)
	assert.Equal(t, 0, q.Len())
	stepTo(t, clk, epoch.Add(5*ms))
	waitForLen(t, q, 1)
	key = mustGet(t, q)
	q.AddRateLimited(key)
	q.Done(key)
	assert.Equal(t, 2, q.NumRequeues(key))
	stepTo(t, clk, epoch.Add(5*ms+10*ms))
	waitForLen(t, q, 1)
	key = mustGet(t, q)
	q.Forget(key) // it succeeded: back to the 5 ms base next time
	q.Done(key)
	assert.Equal(t, 0, q.NumRequeues(key))
}
