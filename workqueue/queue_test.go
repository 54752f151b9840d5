package workqueue_test

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/workqueue"
)

const eventually = 10 * time.Second
const tick = time.Millisecond

// mustGet gets an item and fails if the queue reports shutdown.
func mustGet[T comparable](t *testing.T, q workqueue.TypedInterface[T]) T {
	t.Helper()
	item, shutdown := q.Get()
	require.False(t, shutdown, "unexpected shutdown")
	return item
}

// Reference 1: Add is ignored while shutting down.
func TestAddIgnoredWhileShuttingDown(t *testing.T) {
	q := workqueue.NewTyped[string]()
	q.ShutDown()
	q.Add("a")
	assert.Equal(t, 0, q.Len())
	_, shutdown := q.Get()
	assert.True(t, shutdown)
}

// Reference 1: Add wakes one waiting Get.
func TestAddWakesWaitingGet(t *testing.T) {
	q := workqueue.NewTyped[string]()
	got := make(chan string)
	go func() {
		item, _ := q.Get()
		got <- item
	}()
	q.Add("a")
	select {
	case item := <-got:
		assert.Equal(t, "a", item)
	case <-time.After(eventually):
		t.Fatal("Get was not woken by Add")
	}
}

// Reference 2: Add a, b, a → Len 2, Get returns a then b.
func TestAddDedupsDirtyItems(t *testing.T) {
	q := workqueue.NewTyped[string]()
	q.Add("a")
	q.Add("b")
	q.Add("a")
	assert.Equal(t, 2, q.Len())
	assert.Equal(t, "a", mustGet(t, q))
	assert.Equal(t, "b", mustGet(t, q))
	assert.Equal(t, 0, q.Len())
}

// Reference 3: adding while processing does not queue; Done queues it once, at the back.
func TestAddWhileProcessingRequeuesOnDone(t *testing.T) {
	q := workqueue.NewTyped[string]()
	q.Add("a")
	item := mustGet(t, q)
	require.Equal(t, "a", item)

	q.Add("a")
	q.Add("a")
	assert.Equal(t, 0, q.Len(), "an item being processed must not be queued")
	q.Add("b")
	assert.Equal(t, 1, q.Len())

	q.Done("a")
	assert.Equal(t, 2, q.Len(), "Done re-queues a dirty item exactly once")
	assert.Equal(t, "b", mustGet(t, q), "the re-queued item goes to the back")
	assert.Equal(t, "a", mustGet(t, q))
	q.Done("a")
	assert.Equal(t, 0, q.Len(), "Done of a clean item does not re-queue it")
}

// Reference 4: Get moves an item from dirty to processing; Len counts only the queue.
func TestGetMovesItemFromDirtyToProcessing(t *testing.T) {
	q := workqueue.NewTyped[string]()
	q.Add("a")
	require.Equal(t, 1, q.Len())
	mustGet(t, q)
	assert.Equal(t, 0, q.Len(), "Len does not count items being processed")
	// No longer dirty: a new Add is accepted (and parked until Done).
	q.Add("a")
	q.Done("a")
	assert.Equal(t, 1, q.Len())
}

// Reference 5: Get blocks while empty.
func TestGetBlocksWhileEmpty(t *testing.T) {
	q := workqueue.NewTyped[string]()
	returned := make(chan struct{})
	go func() {
		q.Get()
		close(returned)
	}()
	// Block until something is queued: nothing may come out before the Add.
	select {
	case <-returned:
		t.Fatal("Get returned from an empty queue")
	case <-time.After(20 * time.Millisecond):
	}
	q.Add("a")
	require.Eventually(t, func() bool {
		select {
		case <-returned:
			return true
		default:
			return false
		}
	}, eventually, tick)
}

// Reference 5: after ShutDown, Get drains what is queued, then reports shutdown.
func TestGetAfterShutDownDrainsThenReportsShutdown(t *testing.T) {
	q := workqueue.NewTyped[string]()
	q.Add("a")
	q.Add("b")
	q.ShutDown()
	assert.True(t, q.ShuttingDown())

	item, shutdown := q.Get()
	assert.Equal(t, "a", item)
	assert.False(t, shutdown)
	item, shutdown = q.Get()
	assert.Equal(t, "b", item)
	assert.False(t, shutdown)
	item, shutdown = q.Get()
	assert.Equal(t, "", item)
	assert.True(t, shutdown)
}

// Reference 5: ShutDown wakes every blocked Get.
func TestShutDownWakesBlockedGets(t *testing.T) {
	q := workqueue.NewTyped[int]()
	var wg sync.WaitGroup
	results := make(chan bool, 3)
	for range 3 {
		wg.Go(func() {
			_, shutdown := q.Get()
			results <- shutdown
		})
	}
	q.ShutDown()
	wg.Wait()
	close(results)
	for shutdown := range results {
		assert.True(t, shutdown)
	}
}

// Reference 6: ShutDownWithDrain waits for the processing set, not the queue.
func TestShutDownWithDrainWaitsForProcessingNotQueue(t *testing.T) {
	q := workqueue.NewTyped[string]()
	q.Add("a")
	q.Add("b")
	q.Add("c")
	mustGet(t, q) // a is processing; b and c are queued

	drained := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(drained)
	}()
	require.Eventually(t, q.ShuttingDown, eventually, tick)
	select {
	case <-drained:
		t.Fatal("ShutDownWithDrain returned while an item was processing")
	case <-time.After(20 * time.Millisecond):
	}

	q.Done("a")
	select {
	case <-drained:
	case <-time.After(eventually):
		t.Fatal("ShutDownWithDrain did not return once processing was empty")
	}
	assert.Equal(t, 2, q.Len(), "queued items are not waited for")
}

// Reference 6: a ShutDown during the drain releases the waiter.
func TestShutDownDuringDrainReleasesWaiter(t *testing.T) {
	q := workqueue.NewTyped[string]()
	q.Add("a")
	mustGet(t, q)

	drained := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(drained)
	}()
	require.Eventually(t, q.ShuttingDown, eventually, tick)
	q.ShutDown()
	select {
	case <-drained:
	case <-time.After(eventually):
		t.Fatal("ShutDown did not release ShutDownWithDrain")
	}
}

// Done for an item that was never handed out changes nothing.
func TestDoneForUnknownItemIsNoop(t *testing.T) {
	q := workqueue.NewTyped[string]()
	q.Add("a")
	q.Done("a")
	q.Done("zzz")
	assert.Equal(t, 1, q.Len())
	assert.Equal(t, "a", mustGet(t, q))
	assert.Equal(t, 0, q.Len())
}

// The ring buffer keeps FIFO order across growth and wrap-around.
func TestQueueKeepsFIFOOrderAcrossGrowth(t *testing.T) {
	q := workqueue.NewTyped[int]()
	var got []int
	next := 0
	for round := range 6 {
		for range 37 * (round + 1) {
			q.Add(next)
			next++
		}
		for q.Len() > 20 {
			item := mustGet(t, q)
			got = append(got, item)
			q.Done(item)
		}
	}
	for q.Len() > 0 {
		item := mustGet(t, q)
		got = append(got, item)
		q.Done(item)
	}
	require.Len(t, got, next)
	for i, item := range got {
		require.Equal(t, i, item)
	}
}
