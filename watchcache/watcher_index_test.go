package watchcache

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

func nodePod(name, node string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name}}
	p.Spec.NodeName = node
	p.Spec.Containers = []api.Container{{Name: "c", Image: "img"}}
	return p
}

func watchPods(t *testing.T, c *Cacher, info *api.ResourceInfo, rv uint64, selector string) api.Watcher {
	t.Helper()
	sel, err := api.ParseFieldSelector(selector)
	require.NoError(t, err)
	w, err := c.Watch(ctxFor(t), info.KeyPrefix(), store.ListOptions{ResourceVersion: rvString(rv), Predicate: store.SelectionPredicate{Field: sel}})
	require.NoError(t, err)
	t.Cleanup(w.Stop)
	return w
}

func bind(t *testing.T, c *Cacher, info *api.ResourceInfo, name, node string) api.Object {
	t.Helper()
	out, err := c.GuaranteedUpdate(ctxFor(t), info.Key("ns", name), nil, func(cur api.Object) (api.Object, error) {
		cur.(*api.Pod).Spec.NodeName = node
		return cur, nil
	}, nil)
	require.NoError(t, err)
	return out
}

// A kubelet's watch (spec.nodeName=<node>) sees a pod arrive when it is
// bound to its node and leave when it moves away, through the index, and
// never sees pods of other nodes; unindexed watchers see everything.
func TestNodeNameWatchersSeeOnlyTheirNodesPodsThroughTheIndex(t *testing.T) {
	info := testInfo(t, "pods")
	c, _ := startCacher(t, info, Options{})
	require.Equal(t, "spec.nodeName", c.watchers.field)
	start := c.resourceVersion()

	onA := watchPods(t, c, info, start, "spec.nodeName=node-a")
	onB := watchPods(t, c, info, start, "spec.nodeName=node-b")
	unscheduled := watchPods(t, c, info, start, "spec.nodeName=")
	notOnA := watchPods(t, c, info, start, "spec.nodeName!=node-a")
	all := watchPods(t, c, info, start, "")
	require.Len(t, c.watchers.byValue, 3, "node-a, node-b and the empty value")
	require.Len(t, c.watchers.unindexed, 2, "!= and no selector are not indexed")

	_, err := c.Create(ctxFor(t), info.Key("ns", "p"), nodePod("p", ""))
	require.NoError(t, err)
	bind(t, c, info, "p", "node-a")
	moved := bind(t, c, info, "p", "node-b")

	ev := nextNonBookmark(t, unscheduled)
	require.Equal(t, api.Added, ev.Type)
	require.Equal(t, api.Deleted, nextNonBookmark(t, unscheduled).Type, "bound: it leaves the unscheduled watch")

	ev = nextNonBookmark(t, onA)
	require.Equal(t, api.Added, ev.Type, "bound to node-a")
	ev = nextNonBookmark(t, onA)
	require.Equal(t, api.Deleted, ev.Type, "moved to node-b: found through its previous value")
	require.Equal(t, "node-a", ev.Object.(*api.Pod).Spec.NodeName, "the state node-a last knew")

	ev = nextNonBookmark(t, onB)
	require.Equal(t, api.Added, ev.Type)
	require.Equal(t, moved.GetObjectMeta().ResourceVersion, ev.Object.GetObjectMeta().ResourceVersion, "node-b sees nothing before the move")

	require.Equal(t, api.Added, nextNonBookmark(t, notOnA).Type)
	require.Equal(t, api.Deleted, nextNonBookmark(t, notOnA).Type)
	require.Equal(t, api.Added, nextNonBookmark(t, notOnA).Type)
	for _, want := range []api.EventType{api.Added, api.Modified, api.Modified} {
		require.Equal(t, want, nextNonBookmark(t, all).Type)
	}
}

func TestStoppedIndexedWatcherLeavesTheIndex(t *testing.T) {
	info := testInfo(t, "pods")
	c, _ := startCacher(t, info, Options{})
	w := watchPods(t, c, info, c.resourceVersion(), "spec.nodeName=node-a")
	c.mu.RLock()
	require.Len(t, c.watchers.byValue["node-a"], 1)
	c.mu.RUnlock()
	w.Stop()
	c.mu.RLock()
	defer c.mu.RUnlock()
	require.Empty(t, c.watchers.byValue, "no empty bucket is left behind")
	require.Zero(t, c.watchers.count)
}

func TestTriggerFieldIsKubernetesTriggerFuncs(t *testing.T) {
	for kind, want := range map[string]string{"Pod": "spec.nodeName", "Node": "metadata.name", "ConfigMap": ""} {
		info, ok := api.Builtin().ForKind("", kind)
		require.True(t, ok, kind)
		require.Equal(t, want, triggerField(info), kind)
	}
}

// BenchmarkDispatch1000NodeWatchers: one pod update dispatched with 1000
// kubelet-style watchers open (spec.nodeName=node-i), as the index serves
// them (kubeloop), against the same watchers on a field the index does not
// cover (unindexed: every event tried against every filter).
func BenchmarkDispatch1000NodeWatchers(b *testing.B) {
	const nodes = 1000
	for _, impl := range []struct{ name, field string }{{"kubeloop", "spec.nodeName"}, {"unindexed", ""}} {
		b.Run(impl.name, func(b *testing.B) {
			info, _ := api.Builtin().ForResource("", "pods")
			c := &Cacher{info: info, prefix: info.KeyPrefix(), cache: newWatchCache(info, 1000),
				watchers: newIndexedWatchers(impl.field), memo: newEncodeMemo(), changed: make(chan struct{}),
				budget: newTimeBudget(0, time.Now())}
			c.metrics, _ = newMetrics(nil, "pods")
			c.cache.replace(nil, 1)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			for i := range nodes {
				sel, _ := api.ParseFieldSelector("spec.nodeName=" + benchNodeName(i))
				w := newCacheWatcher(100, newFilter(info.KeyPrefix(), store.SelectionPredicate{Field: sel}), false)
				w.indexValue, w.indexed = c.watchers.indexValueFor(sel)
				c.mu.Lock()
				c.addWatcherLocked(w)
				c.mu.Unlock()
				go func() {
					for range w.ResultChan() {
					}
				}()
				go w.process(ctx, nil)
			}
			rv := uint64(1)
			for i := 0; b.Loop(); i++ {
				rv++
				p := nodePod(fmt.Sprintf("p-%d", i%3000), benchNodeName(i%nodes))
				p.ResourceVersion = rvString(rv)
				c.processEvent(api.Added, p, rv)
			}
		})
	}
}

// benchNodeName names the i-th simulated node.
func benchNodeName(i int) string { return fmt.Sprintf("node-%04d", i) }
