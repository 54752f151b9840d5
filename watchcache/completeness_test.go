package watchcache

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

type seen struct {
	Type api.EventType
	Name string
	RV   uint64
}

// TestEveryWatcherSeesEtcdHistoryAfterItsStart starts 200 watchers at
// random revisions while 20 writers change objects, and checks that each
// watcher's stream is exactly etcd's history after its start: nothing lost,
// repeated or reordered.
func TestEveryWatcherSeesEtcdHistoryAfterItsStart(t *testing.T) {
	const writers, watchers = 20, 200
	changes := 10000
	if raceEnabled {
		changes = 2000
	}
	info := testInfo(t, "configmaps")
	c, s := startCacher(t, info, Options{EventBufferCapacity: 2 * changes, WatcherBufferSize: 2 * changes})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := c.resourceVersion()
	began := time.Now()

	// etcd's own account of what happened, straight from the store.
	raw, err := s.Watch(ctx, info.KeyPrefix(), store.ListOptions{ResourceVersion: rvString(base)})
	require.NoError(t, err)
	defer raw.Stop()

	var done atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < writers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			exists := map[string]bool{}
			for i := 0; i < changes/writers; i++ {
				name := fmt.Sprintf("w%d-%d", g, rng.IntN(5))
				key := info.Key("ns", name)
				var err error
				switch {
				case !exists[name]:
					_, err = c.Create(ctx, key, configMap("ns", name, nil))
					exists[name] = true
				case rng.IntN(5) == 0:
					_, err = c.Delete(ctx, key, nil, nil, nil)
					exists[name] = false
				default:
					_, err = c.GuaranteedUpdate(ctx, key, nil, func(cur api.Object) (api.Object, error) {
						cur.(*api.ConfigMap).Data = map[string]string{"i": fmt.Sprint(i)}
						return cur, nil
					}, nil)
				}
				if err != nil {
					t.Errorf("writer %d: %v", g, err)
					return
				}
				done.Add(1)
			}
		}()
	}

	type stream struct {
		start uint64
		got   []seen
	}
	streams := make([]*stream, watchers)
	finished := make(chan struct{})
	var final atomic.Uint64
	var readers sync.WaitGroup
	rng := rand.New(rand.NewPCG(42, 42))
	for i := 0; i < watchers; i++ {
		// Spread the starts over the writes.
		for done.Load() < int64(i*changes/watchers) && ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
		start := base + rng.Uint64N(c.resourceVersion()-base+1)
		w, err := c.Watch(ctx, info.KeyPrefix(), store.ListOptions{ResourceVersion: rvString(start)})
		require.NoError(t, err)
		defer w.Stop()
		st := &stream{start: start}
		streams[i] = st
		readers.Add(1)
		go func() {
			defer readers.Done()
			last, fin := start, finished
			for {
				if f := final.Load(); f != 0 && last >= f {
					return
				}
				select {
				case ev, ok := <-w.ResultChan():
					if !ok {
						return
					}
					last = rvOf(t, ev.Object)
					st.got = append(st.got, seen{ev.Type, ev.Object.GetObjectMeta().Name, last})
				case <-fin:
					fin = nil // from now on, only the final RV ends the loop
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("writes done after %s", time.Since(began))
	finalRV, err := c.CurrentResourceVersion(ctx)
	require.NoError(t, err)
	final.Store(finalRV)
	close(finished)

	var history []seen
	for len(history) == 0 || history[len(history)-1].RV < finalRV {
		ev := nextEvent(t, raw)
		history = append(history, seen{ev.Type, ev.Object.GetObjectMeta().Name, rvOf(t, ev.Object)})
	}
	require.Len(t, history, changes)
	readers.Wait()
	for i, st := range streams {
		var want []seen
		for _, h := range history {
			if h.RV > st.start {
				want = append(want, h)
			}
		}
		require.Equal(t, want, st.got, "watcher %d from %d", i, st.start)
	}
}
