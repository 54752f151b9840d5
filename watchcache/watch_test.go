package watchcache

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

func TestWatchFromRVReplaysLaterEventsThenLive(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{})
	a := create(t, c, info, configMap("ns", "a", nil))
	b := create(t, c, info, configMap("ns", "b", nil))
	waitCacheAt(t, c, rvOf(t, b))

	w, err := c.Watch(ctxFor(t), info.KeyPrefix(), store.ListOptions{ResourceVersion: a.GetObjectMeta().ResourceVersion})
	require.NoError(t, err)
	defer w.Stop()
	ev := nextEvent(t, w)
	require.Equal(t, api.Added, ev.Type)
	require.Equal(t, "b", ev.Object.GetObjectMeta().Name)

	d := remove(t, c, info, "ns", "a")
	ev = nextEvent(t, w)
	require.Equal(t, api.Deleted, ev.Type)
	require.Equal(t, d.GetObjectMeta().ResourceVersion, ev.Object.GetObjectMeta().ResourceVersion)
	require.Equal(t, "ConfigMap", ev.Object.GetTypeMeta().Kind)
}

func TestWatchFromTooOldRVIsExpiredWithOldestServableRV(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{EventBufferCapacity: 3})
	first := create(t, c, info, configMap("ns", "o0", nil))
	var last api.Object
	for _, n := range []string{"o1", "o2", "o3", "o4"} {
		last = create(t, c, info, configMap("ns", n, nil))
	}
	waitCacheAt(t, c, rvOf(t, last))
	// The ring holds the last 3 events (o2, o3, o4): the oldest start is
	// just before o2, the revision of o1.
	oldest := rvOf(t, last) - 3
	tooOld := rvOf(t, first)
	_, err := c.Watch(ctxFor(t), info.KeyPrefix(), store.ListOptions{ResourceVersion: rvString(tooOld)})
	require.True(t, api.IsExpired(err), "%v", err)
	require.Equal(t, int32(410), api.CodeForError(err))
	require.Equal(t, "too old resource version: "+rvString(tooOld)+" ("+rvString(oldest)+")", err.Error())

	w, err := c.Watch(ctxFor(t), info.KeyPrefix(), store.ListOptions{ResourceVersion: rvString(oldest)})
	require.NoError(t, err)
	defer w.Stop()
	require.Equal(t, "o2", nextEvent(t, w).Object.GetObjectMeta().Name)
}

func TestWatchFromFutureRVBeyondEtcdIsTooLarge(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{})
	cur, err := c.CurrentResourceVersion(ctxFor(t))
	require.NoError(t, err)
	_, err = c.Watch(ctxFor(t), info.KeyPrefix(), store.ListOptions{ResourceVersion: rvString(cur + 1000)})
	require.True(t, api.IsTooLargeResourceVersion(err), "%v", err)
}

func TestWatchFromZeroStartsWithSyntheticAddedForCurrentState(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{})
	create(t, c, info, configMap("ns", "a", nil))
	create(t, c, info, configMap("other", "b", nil))
	for _, rv := range []string{"0", ""} {
		w, err := c.Watch(ctxFor(t), info.KeyPrefix()+"ns/", store.ListOptions{ResourceVersion: rv})
		require.NoError(t, err)
		ev := nextEvent(t, w)
		require.Equal(t, api.Added, ev.Type, "rv %q", rv)
		require.Equal(t, "a", ev.Object.GetObjectMeta().Name, "only the watched namespace")
		w.Stop()
	}
}

func TestSendInitialEventsEndsWithAnnotatedBookmarkAtCacheRV(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{})
	create(t, c, info, configMap("ns", "a", nil))
	b := create(t, c, info, configMap("ns", "b", nil))
	for _, rv := range []string{"", "0", b.GetObjectMeta().ResourceVersion} {
		w, err := c.Watch(ctxFor(t), info.KeyPrefix(), store.ListOptions{
			ResourceVersion: rv, ResourceVersionMatch: store.ResourceVersionMatchNotOlderThan,
			SendInitialEvents: boolPtr(true), AllowWatchBookmarks: true,
		})
		require.NoError(t, err, "rv %q", rv)
		names := map[string]bool{}
		for len(names) < 2 {
			ev := nextEvent(t, w)
			require.Equal(t, api.Added, ev.Type, "rv %q", rv)
			names[ev.Object.GetObjectMeta().Name] = true
		}
		ev := nextEvent(t, w)
		require.Equal(t, api.Bookmark, ev.Type, "rv %q", rv)
		m := ev.Object.GetObjectMeta()
		require.Equal(t, "true", m.Annotations[api.InitialEventsAnnotation])
		require.GreaterOrEqual(t, rvOf(t, ev.Object), rvOf(t, b), "rv %q", rv)
		require.Equal(t, "v1", ev.Object.GetTypeMeta().APIVersion)
		require.Equal(t, "ConfigMap", ev.Object.GetTypeMeta().Kind)
		require.Empty(t, m.Name)

		c3 := create(t, c, info, configMap("ns", "c-"+rvString(uint64(len(rv))), nil))
		ev = nextNonBookmark(t, w)
		require.Equal(t, api.Added, ev.Type)
		require.Equal(t, c3.GetObjectMeta().ResourceVersion, ev.Object.GetObjectMeta().ResourceVersion)
		w.Stop()
		waitCacheAt(t, c, rvOf(t, remove(t, c, info, "ns", c3.GetObjectMeta().Name)))
	}
}

func TestInvalidWatchOptionCombinationsAreInvalid(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{})
	cases := []struct {
		name    string
		opts    store.ListOptions
		message string
	}{
		{"sendInitialEvents without match", store.ListOptions{SendInitialEvents: boolPtr(true)},
			`ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan`},
		{"match without sendInitialEvents", store.ListOptions{ResourceVersion: "5", ResourceVersionMatch: store.ResourceVersionMatchNotOlderThan},
			`ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided`},
		{"exact match", store.ListOptions{SendInitialEvents: boolPtr(true), ResourceVersionMatch: store.ResourceVersionMatchExact}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Watch(ctxFor(t), info.KeyPrefix(), tc.opts)
			require.True(t, api.IsInvalid(err), "%v", err)
			require.Equal(t, int32(422), api.CodeForError(err))
			if tc.message != "" {
				require.Equal(t, tc.message, err.Error())
			}
		})
	}
	_, err := c.List(ctxFor(t), info.KeyPrefix(), store.ListOptions{SendInitialEvents: boolPtr(true)})
	require.True(t, api.IsInvalid(err), "sendInitialEvents on a list: %v", err)
}

func TestLabelSelectorWatchSeesObjectsMoveInAndOut(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{})
	sel, err := api.ParseSelector("app=web")
	require.NoError(t, err)
	start := create(t, c, info, configMap("ns", "a", map[string]string{"app": "db"}))
	w, err := c.Watch(ctxFor(t), info.KeyPrefix(), store.ListOptions{
		ResourceVersion: start.GetObjectMeta().ResourceVersion, Predicate: store.SelectionPredicate{Label: sel},
	})
	require.NoError(t, err)
	defer w.Stop()

	in := relabel(t, c, info, "ns", "a", map[string]string{"app": "web"})
	ev := nextEvent(t, w)
	require.Equal(t, api.Added, ev.Type)
	require.Equal(t, in.GetObjectMeta().ResourceVersion, ev.Object.GetObjectMeta().ResourceVersion)

	relabel(t, c, info, "ns", "a", map[string]string{"app": "web", "tier": "1"})
	require.Equal(t, api.Modified, nextEvent(t, w).Type)

	out := relabel(t, c, info, "ns", "a", map[string]string{"app": "db"})
	ev = nextEvent(t, w)
	require.Equal(t, api.Deleted, ev.Type)
	require.Equal(t, out.GetObjectMeta().ResourceVersion, ev.Object.GetObjectMeta().ResourceVersion)

	// Invisible changes produce nothing; the next visible one arrives next.
	remove(t, c, info, "ns", "a")
	b := create(t, c, info, configMap("ns", "b", map[string]string{"app": "web"}))
	ev = nextEvent(t, w)
	require.Equal(t, api.Added, ev.Type)
	require.Equal(t, b.GetObjectMeta().ResourceVersion, ev.Object.GetObjectMeta().ResourceVersion)
}

func TestFieldSelectorsOnNameAndNodeName(t *testing.T) {
	info := testInfo(t, "pods")
	c, _ := startCacher(t, info, Options{})
	pod := func(name, node string) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name}}
		p.Spec.NodeName = node
		return p
	}
	ctx := ctxFor(t)
	for _, p := range []*api.Pod{pod("p1", ""), pod("p2", "n1")} {
		_, err := c.Create(ctx, info.Key("ns", p.Name), p)
		require.NoError(t, err)
	}
	byNode, err := api.ParseFieldSelector("spec.nodeName=n1")
	require.NoError(t, err)
	byName, err := api.ParseFieldSelector("metadata.name=p1")
	require.NoError(t, err)
	wNode, err := c.Watch(ctx, info.KeyPrefix(), store.ListOptions{ResourceVersion: "0", Predicate: store.SelectionPredicate{Field: byNode}})
	require.NoError(t, err)
	defer wNode.Stop()
	wName, err := c.Watch(ctx, info.KeyPrefix(), store.ListOptions{ResourceVersion: "0", Predicate: store.SelectionPredicate{Field: byName}})
	require.NoError(t, err)
	defer wName.Stop()
	require.Equal(t, "p2", nextEvent(t, wNode).Object.GetObjectMeta().Name)
	require.Equal(t, "p1", nextEvent(t, wName).Object.GetObjectMeta().Name)

	// Binding p1 to n1 moves it into the node's watch; p1's own watch sees
	// a plain MODIFIED.
	_, err = c.GuaranteedUpdate(ctx, info.Key("ns", "p1"), nil, func(cur api.Object) (api.Object, error) {
		cur.(*api.Pod).Spec.NodeName = "n1"
		return cur, nil
	}, nil)
	require.NoError(t, err)
	ev := nextEvent(t, wNode)
	require.Equal(t, api.Added, ev.Type)
	require.Equal(t, "p1", ev.Object.GetObjectMeta().Name)
	require.Equal(t, api.Modified, nextEvent(t, wName).Type)

	list, err := c.List(ctx, info.KeyPrefix(), store.ListOptions{ResourceVersion: "0", Predicate: store.SelectionPredicate{Field: byNode}})
	require.NoError(t, err)
	require.Len(t, list.Items, 2)
}

func TestPeriodicBookmarksCarryTheCacheRV(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{BookmarkInterval: 100 * time.Millisecond})
	o := create(t, c, info, configMap("ns", "a", nil))
	waitCacheAt(t, c, rvOf(t, o))
	w, err := c.Watch(ctxFor(t), info.KeyPrefix(), store.ListOptions{ResourceVersion: "0", AllowWatchBookmarks: true})
	require.NoError(t, err)
	defer w.Stop()
	require.Equal(t, api.Added, nextEvent(t, w).Type)
	// Bookmarks only go past the watch's start; a new write moves the cache.
	o2 := create(t, c, info, configMap("ns", "b", nil))
	require.Equal(t, api.Added, nextEvent(t, w).Type)
	ev := nextEvent(t, w)
	require.Equal(t, api.Bookmark, ev.Type)
	require.Equal(t, o2.GetObjectMeta().ResourceVersion, ev.Object.GetObjectMeta().ResourceVersion)
	require.Equal(t, "ConfigMap", ev.Object.GetTypeMeta().Kind)
	require.Empty(t, ev.Object.GetObjectMeta().Annotations)

	// A watcher that does not allow bookmarks gets none.
	w2, err := c.Watch(ctxFor(t), info.KeyPrefix(), store.ListOptions{ResourceVersion: o.GetObjectMeta().ResourceVersion})
	require.NoError(t, err)
	defer w2.Stop()
	require.Equal(t, api.Added, nextEvent(t, w2).Type)
	o3 := create(t, c, info, configMap("ns", "c", nil))
	ev = nextEvent(t, w2)
	require.Equal(t, api.Added, ev.Type)
	require.Equal(t, o3.GetObjectMeta().ResourceVersion, ev.Object.GetObjectMeta().ResourceVersion)
}
