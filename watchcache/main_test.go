package watchcache

import (
	"context"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
	"kubeloop/store/storetest"
)

// etcd is the one embedded etcd every test of the package shares; each test
// gets its own resource name, hence its own key prefix.
var etcd *store.Embedded

func TestMain(m *testing.M) {
	storetest.Main(m, func(e *store.Embedded) { etcd = e })
}

const waitFor = 20 * time.Second

// testInfo is the builtin kind (configmaps or pods) under a resource name of
// the test's own, so tests never see each other's objects.
func testInfo(t testing.TB, resource string) *api.ResourceInfo {
	base, ok := api.Builtin().ForResource("", resource)
	require.True(t, ok)
	info := *base
	name := strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			return r
		}
		return '-'
	}, t.Name())
	// The suffix keeps -count=N runs apart: they share one etcd.
	info.Resource = resource + "-" + name + "-" + strconv.FormatInt(time.Now().UnixNano()%1e9, 36)
	return &info
}

func startCacher(t testing.TB, info *api.ResourceInfo, opts Options) (*Cacher, *store.Store) {
	t.Helper()
	s := store.New(etcd.Client(), info)
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	c, err := New(context.Background(), s, info, opts)
	require.NoError(t, err)
	t.Cleanup(c.Stop)
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	require.NoError(t, c.WaitReady(ctx))
	return c, s
}

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func configMap(ns, name string, labels map[string]string) *api.ConfigMap {
	return &api.ConfigMap{
		ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Data:       map[string]string{"k": "v"},
	}
}

func rvOf(t testing.TB, obj api.Object) uint64 {
	rv, err := strconv.ParseUint(obj.GetObjectMeta().ResourceVersion, 10, 64)
	require.NoError(t, err)
	return rv
}

func rvString(rv uint64) string { return strconv.FormatUint(rv, 10) }

// nextEvent waits for one event; the watch must not have ended.
func nextEvent(t testing.TB, w api.Watcher) api.WatchEvent {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		require.True(t, ok, "watch closed early")
		return ev
	case <-time.After(waitFor):
		t.Fatal("no watch event in time")
		return api.WatchEvent{}
	}
}

// nextNonBookmark skips periodic bookmarks.
func nextNonBookmark(t testing.TB, w api.Watcher) api.WatchEvent {
	for {
		ev := nextEvent(t, w)
		if ev.Type != api.Bookmark {
			return ev
		}
	}
}

// create writes a ConfigMap through the cacher and returns the stored one.
func create(t testing.TB, c *Cacher, info *api.ResourceInfo, obj *api.ConfigMap) api.Object {
	t.Helper()
	out, err := c.Create(ctxFor(t), info.Key(obj.Namespace, obj.Name), obj)
	require.NoError(t, err)
	return out
}

// relabel replaces an object's labels through the cacher.
func relabel(t testing.TB, c *Cacher, info *api.ResourceInfo, ns, name string, labels map[string]string) api.Object {
	t.Helper()
	out, err := c.GuaranteedUpdate(ctxFor(t), info.Key(ns, name), nil, func(cur api.Object) (api.Object, error) {
		cur.GetObjectMeta().Labels = labels
		return cur, nil
	}, nil)
	require.NoError(t, err)
	return out
}

func remove(t testing.TB, c *Cacher, info *api.ResourceInfo, ns, name string) api.Object {
	t.Helper()
	out, err := c.Delete(ctxFor(t), info.Key(ns, name), nil, nil, nil)
	require.NoError(t, err)
	return out
}

// waitCacheAt waits until the cache has seen revision rv.
func waitCacheAt(t testing.TB, c *Cacher, rv uint64) {
	t.Helper()
	require.Eventually(t, func() bool { return c.resourceVersion() >= rv }, waitFor, time.Millisecond)
}

func boolPtr(b bool) *bool { return &b }
