package watchcache

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

// Reading path, step 3 (docs/reading-path.md): the watch cache fans one
// etcd watch out to many watchers. Two watchers start at the same
// resourceVersion; one write reaches both, with the write's revision, from
// the cache's single etcd watch (processEvent puts it in the ring, every
// cacheWatcher gets it). A watch from a version the ring no longer holds is
// 410 Gone, which is what makes a reflector relist (step 4). Break in
// watchCache.processEvent and Cacher.Watch.
func TestReadingPathStep3WatchCacheFansOut(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{EventBufferCapacity: 4})
	first := create(t, c, info, configMap("ns", "web", nil))
	waitCacheAt(t, c, rvOf(t, first))

	var watchers []api.Watcher
	for range 2 {
		w, err := c.Watch(ctxFor(t), info.KeyPrefix(), store.ListOptions{ResourceVersion: first.GetObjectMeta().ResourceVersion})
		require.NoError(t, err)
		defer w.Stop()
		watchers = append(watchers, w)
	}
	second := create(t, c, info, configMap("ns", "web-2", nil))
	for i, w := range watchers {
		ev := nextNonBookmark(t, w)
		assert.Equal(t, api.Added, ev.Type, "watcher %d", i)
		assert.Equal(t, "web-2", ev.Object.GetObjectMeta().Name, "watcher %d", i)
		assert.Equal(t, second.GetObjectMeta().ResourceVersion, ev.Object.GetObjectMeta().ResourceVersion,
			"the event carries the etcd revision of the write")
	}

	// Push the first write out of the 4-event ring.
	var last api.Object
	for _, n := range []string{"a", "b", "c", "d"} {
		last = create(t, c, info, configMap("ns", n, nil))
	}
	waitCacheAt(t, c, rvOf(t, last))
	_, err := c.Watch(ctxFor(t), info.KeyPrefix(), store.ListOptions{ResourceVersion: first.GetObjectMeta().ResourceVersion})
	require.True(t, api.IsExpired(err), "a too old resourceVersion is 410 Gone, got %v", err)
}

// The store offers progress notifications, so the cache can prove it is
// current without a write (watchcache/doc.go, "Freshness").
func TestStoreOffersProgressRequests(t *testing.T) {
	var underlying store.Interface = store.New(etcd.Client(), testInfo(t, "configmaps"))
	_, ok := underlying.(ProgressRequester)
	assert.True(t, ok)
}
