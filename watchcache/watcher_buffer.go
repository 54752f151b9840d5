package watchcache

// Skip on a first reading: how many events a watcher may fall behind. A
// fixed buffer of Options.WatcherBufferSize gives the same behaviour,
// with more watchers closed during bursts.
//
// Kubernetes sizes each watcher's channel from the watch cache's ring
// (watch_cache.go: suggestedWatchChannelSize): about one second of
// history, the ring's capacity divided by eventFreshDuration, between 10
// and a maximum that depends on the watcher. A watcher of an indexed kind
// that does not select on the trigger field (the scheduler's and the
// controllers' watch of all pods, which get every event of a scale-up)
// may have up to 1000; every other watcher up to 100. The ring grows
// during bursts, so a watcher that fell behind and re-watches gets a
// larger buffer. Without this, at 200 nodes the all-pods watchers held
// 100 events and were closed again and again during a scale-up (each
// close costs the informer a re-watch, and the apiserver its replay).
//
// Our floor is 100 rather than 10: it was our fixed size before, and a
// kubelet's watch of its own pods, Kubernetes' case for 10, costs only
// 3 KiB of channel at 100.

import "math"

const (
	minWatcherBuffer = 100
	// maxWatcherBufferUntriggered is Kubernetes'
	// maxWatchChanSizeWithIndexWithoutTrigger.
	maxWatcherBufferUntriggered = 1000
)

// watcherBufferSize is the buffer of a new watcher; indexed says whether
// it selects on the kind's trigger field. Called with c.mu held.
func (c *Cacher) watcherBufferSizeLocked(indexed bool) int {
	if c.opts.WatcherBufferSize > 0 {
		return c.opts.WatcherBufferSize
	}
	size := int(math.Ceil(float64(c.cache.ring.capacity()) / eventFreshDuration.Seconds()))
	maxSize := minWatcherBuffer
	if c.watchers.field != "" && !indexed {
		maxSize = maxWatcherBufferUntriggered
	}
	return max(minWatcherBuffer, min(size, maxSize))
}
