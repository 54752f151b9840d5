package watchcache

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A watcher's buffer follows the ring as Kubernetes sizes it: about a
// second of history, 100 at least, up to 1000 for a watch of all pods and
// 100 for a kubelet's watch of its own or for an unindexed kind; a fixed
// Options.WatcherBufferSize wins.
func TestWatcherBufferFollowsTheRing(t *testing.T) {
	bufferOf := func(t *testing.T, c *Cacher, selector string) int {
		t.Helper()
		info := c.info
		w, ok := watchPods(t, c, info, c.resourceVersion(), selector).(*cacheWatcher)
		require.True(t, ok)
		return cap(w.input)
	}
	grow := func(c *Cacher, capacity int) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.cache.ring.grow(capacity)
	}

	pods, _ := startCacher(t, testInfo(t, "pods"), Options{})
	assert.Equal(t, 100, bufferOf(t, pods, ""), "a small ring: the floor")
	grow(pods, 16*1024)
	assert.Equal(t, 219, bufferOf(t, pods, ""), "16384 events over 75 s")
	assert.Equal(t, 219, bufferOf(t, pods, "spec.nodeName!=node-a"), "not an exact match: not indexed")
	assert.Equal(t, 100, bufferOf(t, pods, "spec.nodeName=node-a"), "a kubelet's watch")
	grow(pods, 100*1024)
	assert.Equal(t, 1000, bufferOf(t, pods, ""), "the ceiling")

	configMaps, _ := startCacher(t, testInfo(t, "configmaps"), Options{})
	grow(configMaps, 100*1024)
	assert.Equal(t, 100, bufferOf(t, configMaps, ""), "a kind without an index")

	fixed, _ := startCacher(t, testInfo(t, "pods"), Options{WatcherBufferSize: 7})
	grow(fixed, 100*1024)
	assert.Equal(t, 7, bufferOf(t, fixed, ""))
}
