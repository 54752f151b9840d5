package workqueue_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/workqueue"
)

// Many producers and workers on one queue: no item is processed by two
// workers at once, none is lost, and an Add made after an item was handed
// out leads to one more processing of it.
func TestConcurrentProducersAndWorkers(t *testing.T) {
	const (
		producers = 8
		workers   = 8
		keys      = 50
		addsEach  = 400
	)
	q := workqueue.NewTyped[string]()

	var mu sync.Mutex
	addGen := map[string]int{}  // bumped just before every Add
	seenGen := map[string]int{} // addGen as seen by the latest Get
	inFlight := map[string]bool{}
	var processed atomic.Int64
	var overlap atomic.Bool

	var workersWG sync.WaitGroup
	for range workers {
		workersWG.Go(func() {
			for {
				key, shutdown := q.Get()
				if shutdown {
					return
				}
				mu.Lock()
				if inFlight[key] {
					overlap.Store(true)
				}
				inFlight[key] = true
				seenGen[key] = addGen[key]
				mu.Unlock()

				processed.Add(1)

				mu.Lock()
				inFlight[key] = false
				mu.Unlock()
				q.Done(key)
			}
		})
	}

	var producersWG sync.WaitGroup
	for p := range producers {
		producersWG.Go(func() {
			for i := range addsEach {
				key := fmt.Sprintf("ns/key-%d", (p*7+i)%keys)
				mu.Lock()
				addGen[key]++
				mu.Unlock()
				q.Add(key)
			}
		})
	}
	producersWG.Wait()

	// Every key's latest Add must be followed by a Get that saw it.
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		for key, gen := range addGen {
			if seenGen[key] != gen {
				return false
			}
		}
		return true
	}, eventually, tick, "an Add was lost")

	q.ShutDownWithDrain()
	workersWG.Wait()

	assert.False(t, overlap.Load(), "an item was processed by two workers at once")
	assert.Len(t, addGen, keys)
	n := processed.Load()
	assert.GreaterOrEqual(t, n, int64(keys))
	assert.LessOrEqual(t, n, int64(producers*addsEach), "more processings than adds")
	assert.Equal(t, 0, q.Len())
}
