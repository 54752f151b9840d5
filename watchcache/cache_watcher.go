package watchcache

import (
	"context"
	"sync"
	"time"

	"kubeloop/api"
)

// cacheWatcher is one client's watch. The dispatcher drops
// already-filtered events into input; a goroutine first sends the initial
// events (current state or replay), then forwards input to result. A
// watcher whose input stays full for longer than the dispatch budget allows
// has fallen behind and is closed: its client re-watches from the last RV
// it saw.
//
// Objects in events are the cache's own, shared by every watcher: read-only.
type cacheWatcher struct {
	id     int
	filter filterFunc
	// startRV: events at or below it are already covered by the initial
	// events and are skipped.
	startRV        uint64
	allowBookmarks bool
	// indexed: the watcher requires the kind's trigger field to equal
	// indexValue, and is registered under it (watcher_index.go).
	indexed    bool
	indexValue string

	input  chan api.WatchEvent
	result chan api.WatchEvent
	done   chan struct{}

	stopOnce sync.Once
	// forget unregisters the watcher from the Cacher (idempotent).
	forget func()
	// memo is the Cacher's shared store of serializations.
	memo *encodeMemo
}

func newCacheWatcher(bufferSize int, filter filterFunc, allowBookmarks bool) *cacheWatcher {
	return &cacheWatcher{
		filter:         filter,
		allowBookmarks: allowBookmarks,
		input:          make(chan api.WatchEvent, bufferSize),
		result:         make(chan api.WatchEvent),
		done:           make(chan struct{}),
		forget:         func() {},
	}
}

// ResultChan implements api.Watcher.
func (w *cacheWatcher) ResultChan() <-chan api.WatchEvent { return w.result }

// Stop implements api.Watcher; safe to call more than once.
func (w *cacheWatcher) Stop() {
	w.stopOnce.Do(func() {
		w.forget()
		close(w.done)
	})
}

// nonblockingAdd is called by the dispatcher under Cacher.mu. false means
// the buffer is full.
func (w *cacheWatcher) nonblockingAdd(ev api.WatchEvent) bool {
	select {
	case w.input <- ev:
		return true
	default:
		return false
	}
}

// blockingAdd waits for room in the buffer until expired fires or the
// client stops the watch. The dispatcher calls it without Cacher.mu, while
// Cacher.dispatching keeps input open.
func (w *cacheWatcher) blockingAdd(ev api.WatchEvent, expired <-chan time.Time) bool {
	select {
	case w.input <- ev:
		return true
	case <-w.done:
		return false
	case <-expired:
		return false
	}
}

// process sends the initial events, then live ones, until the input is
// closed (the cacher ended the watch), Stop, or ctx ends. Events still
// buffered when the cacher ends the watch are delivered first.
func (w *cacheWatcher) process(ctx context.Context, initial []api.WatchEvent) {
	defer close(w.result)
	defer w.forget()
	for _, ev := range initial {
		if !w.send(ctx, ev) {
			return
		}
	}
	for {
		select {
		case ev, ok := <-w.input:
			if !ok || !w.send(ctx, ev) {
				return
			}
		case <-w.done:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (w *cacheWatcher) send(ctx context.Context, ev api.WatchEvent) bool {
	select {
	case w.result <- ev:
		return true
	case <-w.done:
		return false
	case <-ctx.Done():
		return false
	}
}
