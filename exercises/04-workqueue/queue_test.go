//go:build exercise || solution

package queue

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every test runs in a synctest bubble: synctest.Wait returns once every
// other goroutine of the test is parked (in cond.Wait, say), so "Get is
// still blocked" is a fact the test can check, not a guess after a sleep.
// If a goroutine stays blocked forever (a Get on a queue that lost its
// key, a ShutDownWithDrain nobody wakes) the bubble reports a deadlock at
// once, and inBubble turns that into a test failure that says so, instead
// of a grader that hangs until go test's timeout.
func inBubble(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("a goroutine of this test stayed blocked in the queue forever (%v): "+
				"some Get, Done or ShutDownWithDrain never returned, or never woke a waiter", r)
		}
	}()
	synctest.Test(t, f)
}

// getAsync calls Get on its own goroutine; the result arrives on the
// channel.
type got struct {
	item     string
	shutdown bool
}

func getAsync(q *Queue) <-chan got {
	ch := make(chan got, 1)
	go func() {
		item, shutdown := q.Get()
		ch <- got{item, shutdown}
	}()
	return ch
}

// returned reports whether a result is there, without waiting.
func returned(ch <-chan got) (got, bool) {
	select {
	case g := <-ch:
		return g, true
	default:
		return got{}, false
	}
}

func mustGet(t *testing.T, q *Queue, want string) {
	t.Helper()
	item, shutdown := q.Get()
	require.False(t, shutdown, "Get reported shutdown, but %q is queued and the queue was not shut down", want)
	require.Equal(t, want, item)
}

func TestAddThenGetHandsTheKeyOut(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		q.Add("ns/a")
		assert.Equal(t, 1, q.Len(), "one key waits after one Add")
		mustGet(t, q, "ns/a")
		assert.Equal(t, 0, q.Len(), "a key being processed is not waiting")
	})
}

func TestGetHandsKeysOutInTheOrderTheyWereAdded(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		for _, k := range []string{"ns/c", "ns/a", "ns/b"} {
			q.Add(k)
		}
		for _, k := range []string{"ns/c", "ns/a", "ns/b"} {
			mustGet(t, q, k)
		}
	})
}

// A key added ten times before a worker gets to it is processed once: the
// queue says "look at this object again", not "this happened ten times".
func TestAddCoalescesAKeyThatIsAlreadyWaiting(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		q.Add("ns/a")
		q.Add("ns/b")
		q.Add("ns/a")
		q.Add("ns/a")
		assert.Equal(t, 2, q.Len(), "ns/a waits once however often it is added")
		mustGet(t, q, "ns/a")
		mustGet(t, q, "ns/b")
		assert.Equal(t, 0, q.Len())
	})
}

// The rule that lets a controller run many workers: a key added while a
// worker holds it is not handed to a second worker. It waits, and Done
// queues it again so its new state is processed too.
func TestAddWhileProcessingWaitsForDone(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		q.Add("ns/a")
		mustGet(t, q, "ns/a")

		q.Add("ns/a") // the object changed while the worker had it
		assert.Equal(t, 0, q.Len(), "a key being processed must not be queued again before Done")
		second := getAsync(q)
		synctest.Wait()
		if g, ok := returned(second); ok {
			t.Fatalf("a second worker got %q while the first still had it: two workers would reconcile one object at once", g.item)
		}

		q.Done("ns/a")
		synctest.Wait()
		g, ok := returned(second)
		require.True(t, ok, "Done did not queue the key that was added during its processing: that change is lost")
		assert.Equal(t, got{"ns/a", false}, g)
		q.Done("ns/a")
		q.ShutDown()
	})
}

func TestManyAddsWhileProcessingQueueTheKeyOnce(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		q.Add("ns/a")
		mustGet(t, q, "ns/a")
		q.Add("ns/a")
		q.Add("ns/a")
		q.Add("ns/a")
		q.Done("ns/a")
		assert.Equal(t, 1, q.Len(), "three adds during processing are one more reconcile")
		mustGet(t, q, "ns/a")
		q.Done("ns/a")
		assert.Equal(t, 0, q.Len(), "a Done with no add in between queues nothing")
	})
}

// Get must forget that a key was dirty when it hands it out: an Add after
// Get means "changed since the worker started", and must count.
func TestAddAfterGetIsNotSwallowed(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		q.Add("ns/a")
		mustGet(t, q, "ns/a")
		q.Done("ns/a")
		q.Add("ns/a")
		assert.Equal(t, 1, q.Len(), "the key was processed and is added again: it must be queued")
	})
}

func TestDoneOfAKeyNotBeingProcessedChangesNothing(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		q.Add("ns/a")
		q.Done("ns/a") // queued, not processing
		q.Done("ns/never-seen")
		assert.Equal(t, 1, q.Len())
		mustGet(t, q, "ns/a")
		q.Done("ns/a")
		q.Done("ns/a") // twice
		assert.Equal(t, 0, q.Len(), "a second Done must not queue the key")
	})
}

func TestGetWaitsForAnAdd(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		ch := getAsync(q)
		synctest.Wait()
		if g, ok := returned(ch); ok {
			t.Fatalf("Get on an empty queue returned %+v instead of waiting", g)
		}
		q.Add("ns/a")
		synctest.Wait()
		g, ok := returned(ch)
		require.True(t, ok, "Add did not wake the waiting Get")
		assert.Equal(t, got{"ns/a", false}, g)
		q.ShutDown()
	})
}

func TestShutDownWakesEveryWaitingGet(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		var waiting []<-chan got
		for range 3 {
			waiting = append(waiting, getAsync(q))
		}
		synctest.Wait()
		q.ShutDown()
		assert.True(t, q.ShuttingDown())
		synctest.Wait()
		for i, ch := range waiting {
			g, ok := returned(ch)
			require.True(t, ok, "waiting Get %d was not woken by ShutDown (wake all of them, not one)", i)
			assert.True(t, g.shutdown, "Get %d returned %q after ShutDown on an empty queue", i, g.item)
		}
	})
}

// Workers finish what is queued before they stop.
func TestShutDownHandsOutWhatIsQueuedThenReportsShutdown(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		q.Add("ns/a")
		q.Add("ns/b")
		q.ShutDown()
		mustGet(t, q, "ns/a")
		mustGet(t, q, "ns/b")
		item, shutdown := q.Get()
		assert.True(t, shutdown, "nothing is left: Get reports shutdown")
		assert.Empty(t, item)
	})
}

func TestAddAfterShutDownIsIgnored(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		q.ShutDown()
		require.True(t, q.ShuttingDown(), "ShutDown shuts the queue down")
		q.Add("ns/a")
		assert.Equal(t, 0, q.Len())
		_, shutdown := q.Get()
		assert.True(t, shutdown)
	})
}

// A controller manager stopping cleanly: no new work, but the reconciles
// in flight finish before ShutDownWithDrain returns.
func TestShutDownWithDrainWaitsForKeysBeingProcessed(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		q.Add("ns/a")
		q.Add("ns/b")
		mustGet(t, q, "ns/a")
		mustGet(t, q, "ns/b")

		drained := make(chan struct{})
		go func() {
			q.ShutDownWithDrain()
			close(drained)
		}()
		synctest.Wait()
		require.True(t, q.ShuttingDown(), "ShutDownWithDrain shuts the queue down first")
		select {
		case <-drained:
			t.Fatal("ShutDownWithDrain returned while two keys were still being processed")
		default:
		}
		q.Add("ns/c")
		assert.Equal(t, 0, q.Len(), "no new keys while draining")

		q.Done("ns/a")
		synctest.Wait()
		select {
		case <-drained:
			t.Fatal("ShutDownWithDrain returned while ns/b was still being processed")
		default:
		}
		q.Done("ns/b")
		synctest.Wait()
		select {
		case <-drained:
		default:
			t.Fatal("the last Done did not release ShutDownWithDrain")
		}
	})
}

func TestShutDownWithDrainReturnsAtOnceWhenNothingIsProcessed(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		q.Add("ns/a") // queued, not handed out: nothing to wait for
		drained := make(chan struct{})
		go func() {
			q.ShutDownWithDrain()
			close(drained)
		}()
		synctest.Wait()
		select {
		case <-drained:
		default:
			t.Fatal("ShutDownWithDrain waited although no key was being processed")
		}
		mustGet(t, q, "ns/a") // what is queued is still handed out
		_, shutdown := q.Get()
		assert.True(t, shutdown)
	})
}

func TestShutDownReleasesAWaitingShutDownWithDrain(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		q := New()
		q.Add("ns/a")
		mustGet(t, q, "ns/a") // and never Done: a stuck worker
		drained := make(chan struct{})
		go func() {
			q.ShutDownWithDrain()
			close(drained)
		}()
		synctest.Wait()
		q.ShutDown()
		synctest.Wait()
		select {
		case <-drained:
		default:
			t.Fatal("ShutDown did not release the waiting ShutDownWithDrain")
		}
	})
}

// The queue as a controller uses it: workers run the loop of
// processNextWorkItem (Get, reconcile, Done) while event handlers add keys.
// Every key's last reconcile must see the key's last change (no add is
// lost), and no key is ever reconciled by two workers at once.
func TestWorkersNeverShareAKeyAndSeeEveryChange(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		const keys, handlers, changes, workers = 8, 4, 200, 4
		q := New()

		var mu sync.Mutex
		version := map[string]int{}  // the object's state, bumped before every Add
		seen := map[string]int{}     // the version the key's latest reconcile read
		inFlight := map[string]int{} // workers reconciling the key right now
		var shared []string

		reconcile := func(key string) {
			mu.Lock()
			inFlight[key]++
			if inFlight[key] > 1 {
				shared = append(shared, key)
			}
			seen[key] = version[key]
			mu.Unlock()
			runtime.Gosched() // give another worker the chance to collide
			mu.Lock()
			inFlight[key]--
			mu.Unlock()
		}

		var workersDone sync.WaitGroup
		for range workers {
			workersDone.Add(1)
			go func() {
				defer workersDone.Done()
				for {
					key, shutdown := q.Get()
					if shutdown {
						return
					}
					reconcile(key)
					q.Done(key)
				}
			}()
		}
		var handlersDone sync.WaitGroup
		for h := range handlers {
			handlersDone.Add(1)
			go func() {
				defer handlersDone.Done()
				for i := range changes {
					key := fmt.Sprintf("ns/obj-%d", (h+i)%keys)
					mu.Lock()
					version[key]++
					mu.Unlock()
					q.Add(key)
				}
			}()
		}
		handlersDone.Wait()
		// Every worker parked in Get: the queue has nothing left to hand out.
		synctest.Wait()

		mu.Lock()
		assert.Empty(t, shared, "keys reconciled by two workers at once")
		for key, v := range version {
			assert.Equal(t, v, seen[key], "%s: the last reconcile saw change %d of %d: an Add was lost", key, seen[key], v)
		}
		mu.Unlock()
		assert.Equal(t, 0, q.Len())
		q.ShutDown()
		workersDone.Wait()
	})
}
