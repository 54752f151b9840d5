package watchcache

import (
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"kubeloop/store"
)

func TestBlockedWatcherIsClosedWhileOthersGetEveryEvent(t *testing.T) {
	info := testInfo(t, "configmaps")
	reg := prometheus.NewRegistry()
	c, _ := startCacher(t, info, Options{WatcherBufferSize: 10, Registerer: reg})
	start := create(t, c, info, configMap("ns", "seed", nil))
	from := store.ListOptions{ResourceVersion: start.GetObjectMeta().ResourceVersion}

	blocked, err := c.Watch(ctxFor(t), info.KeyPrefix(), from)
	require.NoError(t, err)
	defer blocked.Stop()

	// The readers keep pace with the writer (it waits for all of them after
	// each write), so only the blocked watcher can fall behind.
	const writes = 40
	const readers = 3
	var wg sync.WaitGroup
	got := make([][]string, readers)
	acks := make(chan struct{}, readers)
	for i := 0; i < readers; i++ {
		w, err := c.Watch(ctxFor(t), info.KeyPrefix(), from)
		require.NoError(t, err)
		defer w.Stop()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for len(got[i]) < writes {
				ev, ok := <-w.ResultChan()
				if !ok {
					return
				}
				got[i] = append(got[i], ev.Object.GetObjectMeta().ResourceVersion)
				acks <- struct{}{}
			}
		}()
	}
	var want []string
	for i := 0; i < writes; i++ {
		o := create(t, c, info, configMap("ns", "o"+rvString(uint64(i)), nil))
		want = append(want, o.GetObjectMeta().ResourceVersion)
		for r := 0; r < readers; r++ {
			select {
			case <-acks:
			case <-time.After(waitFor):
				t.Fatal("a reader stopped receiving")
			}
		}
	}
	wg.Wait()
	for i := range got {
		require.Equal(t, want, got[i], "reader %d", i)
	}

	// The blocked watcher ends: what was buffered, then a closed channel.
	n := 0
	for range blocked.ResultChan() {
		n++
	}
	require.Less(t, n, writes)
	require.Equal(t, 1.0, metricValue(t, reg, "kubeloop_watchcache_terminated_watchers_total", info.Resource))
	require.Equal(t, float64(writes+1), metricValue(t, reg, "kubeloop_watchcache_events_dispatched_total", info.Resource))
}

func TestStopClosesTheWatch(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{})
	w, err := c.Watch(ctxFor(t), info.KeyPrefix(), store.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	w.Stop()
	w.Stop()
	for range w.ResultChan() {
	}
	require.Eventually(t, func() bool {
		return metricValue(t, c.Gatherer(), "kubeloop_watchcache_watchers", info.Resource) == 0
	}, waitFor, time.Millisecond)
}

// metricValue reads one counter or gauge for a resource from a registry.
func metricValue(t *testing.T, g prometheus.Gatherer, name, resource string) float64 {
	families, err := g.Gather()
	require.NoError(t, err)
	for _, mf := range families {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "resource" && l.GetValue() == resource {
					return m.GetCounter().GetValue() + m.GetGauge().GetValue()
				}
			}
		}
	}
	t.Fatalf("metric %s{resource=%q} not found", name, resource)
	return 0
}

func TestWatcherThatFallsBehindBrieflyKeepsItsWatch(t *testing.T) {
	info := testInfo(t, "configmaps")
	reg := prometheus.NewRegistry()
	// A buffer of 1 overflows at once; a generous budget lets dispatch wait
	// until the reader comes back.
	c, _ := startCacher(t, info, Options{WatcherBufferSize: 1, DispatchTimeoutBudget: time.Minute, Registerer: reg})
	start := create(t, c, info, configMap("ns", "seed", nil))
	w, err := c.Watch(ctxFor(t), info.KeyPrefix(), store.ListOptions{ResourceVersion: start.GetObjectMeta().ResourceVersion})
	require.NoError(t, err)
	defer w.Stop()

	const writes = 20
	var want []string
	for i := 0; i < writes; i++ {
		o := create(t, c, info, configMap("ns", "o"+rvString(uint64(i)), nil))
		want = append(want, o.GetObjectMeta().ResourceVersion)
	}
	var got []string
	for len(got) < writes {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "the watch was closed after %d events", len(got))
			got = append(got, ev.Object.GetObjectMeta().ResourceVersion)
		case <-time.After(waitFor):
			t.Fatalf("only %d events arrived", len(got))
		}
	}
	require.Equal(t, want, got)
	require.Equal(t, 0.0, metricValue(t, reg, "kubeloop_watchcache_terminated_watchers_total", info.Resource))
}

func TestTimeBudgetRefillsAtHalfItsSizePerSecond(t *testing.T) {
	t0 := time.Now()
	b := newTimeBudget(100*time.Millisecond, t0)
	require.Equal(t, 100*time.Millisecond, b.take(t0))
	require.Equal(t, time.Duration(0), b.take(t0))
	require.Equal(t, 50*time.Millisecond, b.take(t0.Add(time.Second)))
	b.giveBack(30 * time.Millisecond)
	require.Equal(t, 30*time.Millisecond, b.take(t0.Add(time.Second)))
	require.Equal(t, 100*time.Millisecond, b.take(t0.Add(time.Hour)), "never more than its size")
}
