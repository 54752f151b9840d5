package watchcache

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"kubeloop/api"
	"kubeloop/store"
)

// ProgressRequester is an optional interface of the underlying store. After
// RequestWatchProgress, every open Watch of the store delivers a BOOKMARK
// event whose object carries the revision etcd has reached (an etcd
// progress notification). It lets a consistent read on an idle resource be
// served from memory: the cache learns it is current without any event.
// Kubernetes: storage.Interface.RequestWatchProgress (etcd3/store.go).
// Without it, consistent reads the cache cannot prove fresh go to the store.
type ProgressRequester interface {
	RequestWatchProgress(ctx context.Context) error
}

// Cacher serves Get, List and Watch of one resource from memory and passes
// writes to the underlying store. It implements store.Interface.
type Cacher struct {
	storage  store.Interface
	progress ProgressRequester // nil when storage has none
	info     *api.ResourceInfo
	prefix   string
	opts     Options
	log      *slog.Logger
	metrics  *metrics

	// mu guards everything below. Dispatch, registration and Stop take it
	// exclusively, so a watcher sees exactly the events after its start;
	// reads and bookmarks share it.
	mu    sync.RWMutex
	cache *watchCache
	// ready: the cache holds a complete list and follows etcd.
	ready bool
	// changed is closed (and replaced) whenever ready or the cache's
	// resourceVersion changes; waiters select on it.
	changed chan struct{}
	// watchers are indexed by the value they require of the kind's
	// trigger field (watcher_index.go).
	watchers *indexedWatchers
	nextID   int
	// dispatching is true while processEvent waits, without mu, for slow
	// watchers: their inputs must stay open, so closing them is left to
	// the end of the dispatch (toClose). Bookmarks wait too, so none
	// overtakes the event being delivered.
	dispatching bool
	toClose     []*cacheWatcher
	budget      *timeBudget
	// memo serializes each event object once for all watchers.
	memo *encodeMemo

	cancel context.CancelFunc
	wg     sync.WaitGroup
}

var _ store.Interface = (*Cacher)(nil)

// New starts a watch cache in front of underlying (the store of the
// resource info describes). It returns at once; the cache lists and starts
// watching in the background (see Ready, WaitReady). Stop, or cancelling
// ctx, ends it.
func New(ctx context.Context, underlying store.Interface, info *api.ResourceInfo, opts Options) (*Cacher, error) {
	if underlying == nil || info == nil {
		return nil, fmt.Errorf("watchcache: underlying store and resource info are required")
	}
	opts = opts.withDefaults()
	m, err := newMetrics(opts.Registerer, info.GroupResource().String())
	if err != nil {
		return nil, fmt.Errorf("watchcache %s: register metrics: %w", info.GroupResource(), err)
	}
	ctx, cancel := context.WithCancel(ctx)
	c := &Cacher{
		storage:  underlying,
		info:     info,
		prefix:   info.KeyPrefix(),
		opts:     opts,
		log:      opts.Logger.With("component", "watchcache", "resource", info.GroupResource().String()),
		metrics:  m,
		cache:    newWatchCache(info, opts.EventBufferCapacity),
		changed:  make(chan struct{}),
		watchers: newIndexedWatchers(triggerField(info)),
		budget:   newTimeBudget(max(opts.DispatchTimeoutBudget, 0), time.Now()),
		memo:     newEncodeMemo(),
		cancel:   cancel,
	}
	c.progress, _ = underlying.(ProgressRequester)
	c.wg.Add(2)
	go func() { defer c.wg.Done(); c.run(ctx) }()
	go func() { defer c.wg.Done(); c.runBookmarks(ctx) }()
	return c, nil
}

// Stop ends the cache and closes every watch.
func (c *Cacher) Stop() {
	c.cancel()
	c.wg.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.setReadyLocked(false)
	c.terminateAllWatchersLocked()
}

// Ready is true while the cache holds a complete list and follows etcd.
func (c *Cacher) Ready() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.ready
}

// WaitReady blocks until the cache is ready or ctx ends.
func (c *Cacher) WaitReady(ctx context.Context) error {
	for {
		c.mu.RLock()
		ready, changed := c.ready, c.changed
		c.mu.RUnlock()
		if ready {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("watch cache for %s not ready: %w", c.info.GroupResource(), ctx.Err())
		}
	}
}

// Gatherer returns the registry the metrics live in: the private one when
// Options.Registerer was nil, else the Registerer if it is also a Gatherer.
func (c *Cacher) Gatherer() prometheus.Gatherer { return c.metrics.gatherer }

// resourceVersion is the revision the cache has caught up to.
func (c *Cacher) resourceVersion() uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.cache.resourceVersion
}

func (c *Cacher) broadcastLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *Cacher) setReadyLocked(ready bool) {
	if c.ready != ready {
		c.ready = ready
		c.broadcastLocked()
	}
}

// replace installs a fresh list. Watchers started before it are closed:
// the events between the old state and the list are not in the ring, so
// they must re-watch (and get 410 if their RV is now too old, and re-list).
func (c *Cacher) replace(objs []api.Object, rv uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.terminateAllWatchersLocked()
	c.cache.replace(objs, rv)
	c.metrics.resourceVersion.Set(float64(rv))
	c.ready = true
	c.broadcastLocked()
	c.log.Info("watch cache initialized", "objects", len(objs), "resourceVersion", rv)
}

// processEvent applies one etcd event and fans it out. A watcher whose
// buffer is full gets a short wait, from a budget shared over time by all
// slow watchers (Options.DispatchTimeoutBudget), and is closed when that
// runs out: a burst does not cost a client its watch (and its informer a
// re-list), yet one stuck client cannot hold up the others or etcd's
// stream for long. The wait happens without mu, so reads go on meanwhile;
// the next event waits, as it comes from the same goroutine.
// Kubernetes: cacher.go, dispatchEvent.
func (c *Cacher) processEvent(typ api.EventType, obj api.Object, rv uint64) {
	c.mu.Lock()
	if rv <= c.cache.resourceVersion {
		c.mu.Unlock()
		return // already applied (a re-watch may repeat the boundary)
	}
	ev := c.cache.processEvent(typ, obj, rv, time.Now())
	var blocked []blockedAdd
	sent := 0
	c.watchers.forEvent(ev, func(w *cacheWatcher) {
		if rv <= w.startRV {
			return
		}
		we, ok := watchEventFor(ev, w.filter)
		if !ok {
			return
		}
		sent++
		if !w.nonblockingAdd(we) {
			blocked = append(blocked, blockedAdd{w, we})
		}
	})
	c.metrics.eventsDispatched.Inc()
	c.traceDispatched(typ, obj, rv, sent)
	c.metrics.resourceVersion.Set(float64(rv))
	c.broadcastLocked()
	if len(blocked) == 0 {
		c.mu.Unlock()
		return
	}
	c.dispatching = true
	c.mu.Unlock()

	failed := c.waitForSlowWatchers(blocked)

	c.mu.Lock()
	defer c.mu.Unlock()
	c.dispatching = false
	for _, w := range failed {
		if c.watchers.get(w) == w {
			c.terminateWatcherLocked(w)
			c.metrics.terminatedWatchers.Inc()
			c.log.Warn("watcher fell behind, closing it", "watcher", w.id, "resourceVersion", rv)
		}
	}
	for _, w := range c.toClose {
		close(w.input)
	}
	c.toClose = nil
}

// blockedAdd is an event a watcher had no room for.
type blockedAdd struct {
	w  *cacheWatcher
	ev api.WatchEvent
}

// waitForSlowWatchers delivers to each blocked watcher within what is
// left of the budget and returns those that did not take their event (or
// stopped meanwhile).
func (c *Cacher) waitForSlowWatchers(blocked []blockedAdd) []*cacheWatcher {
	start := time.Now()
	budget := c.budget.take(start)
	timer := time.NewTimer(budget)
	defer timer.Stop()
	var failed []*cacheWatcher
	expired := false
	for _, b := range blocked {
		if expired {
			if !b.w.nonblockingAdd(b.ev) {
				failed = append(failed, b.w)
			}
			continue
		}
		if !b.w.blockingAdd(b.ev, timer.C) {
			failed = append(failed, b.w)
			// Either the budget ran out (the timer fired once; its
			// channel will not fire again) or the client left.
			expired = time.Since(start) >= budget
		}
	}
	c.budget.giveBack(budget - time.Since(start))
	return failed
}

// advance moves the cache's revision without an event (a progress
// notification from etcd: nothing of this resource changed up to rv).
func (c *Cacher) advance(rv uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if rv > c.cache.resourceVersion {
		c.cache.resourceVersion = rv
		c.metrics.resourceVersion.Set(float64(rv))
		c.broadcastLocked()
	}
}

func (c *Cacher) addWatcherLocked(w *cacheWatcher) {
	id := c.nextID
	c.nextID++
	w.id = id
	w.memo = c.memo
	c.watchers.add(w)
	c.metrics.watchers.Inc()
	w.forget = func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.terminateWatcherLocked(w)
	}
}

// terminateWatcherLocked unregisters w and closes its input; its goroutine
// delivers what is buffered and closes the result channel.
func (c *Cacher) terminateWatcherLocked(w *cacheWatcher) {
	if c.watchers.get(w) != w {
		return
	}
	c.watchers.delete(w)
	if c.dispatching {
		c.toClose = append(c.toClose, w)
	} else {
		close(w.input)
	}
	c.metrics.watchers.Dec()
}

func (c *Cacher) terminateAllWatchersLocked() {
	c.watchers.each(c.terminateWatcherLocked)
}

// runBookmarks sends every watcher that allows bookmarks one with the
// cache's revision, each BookmarkInterval. Kubernetes spreads bookmarks
// over time per watcher (watcherBookmarkTimeBuckets); one tick is simpler.
// A full buffer just skips the bookmark: it is a hint, not an event.
func (c *Cacher) runBookmarks(ctx context.Context) {
	t := time.NewTicker(c.opts.BookmarkInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		c.mu.RLock()
		if c.dispatching {
			// The event being delivered must come first; the next tick
			// will do.
			c.mu.RUnlock()
			continue
		}
		rv := c.cache.resourceVersion
		var obj api.Object
		c.watchers.each(func(w *cacheWatcher) {
			if !w.allowBookmarks || rv <= w.startRV {
				return
			}
			if obj == nil {
				obj = bookmarkObject(c.info, rv, false)
			}
			w.nonblockingAdd(api.WatchEvent{Type: api.Bookmark, Object: obj})
		})
		c.mu.RUnlock()
	}
}
