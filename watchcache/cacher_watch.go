package watchcache

import (
	"context"
	"time"

	"kubeloop/api"
	"kubeloop/store"
)

// Watch serves a watch from memory (Kubernetes: Cacher.Watch):
//
//   - RV "" or "0" without sendInitialEvents, or sendInitialEvents=true:
//     an ADDED event per current object that passes the filter, then live
//     events. "" and sendInitialEvents with "" are consistent: the state is
//     at least as new as etcd's current revision. With sendInitialEvents and
//     allowWatchBookmarks, a BOOKMARK annotated k8s.io/initial-events-end
//     ends the initial events (without allowWatchBookmarks it is not sent,
//     as in Kubernetes).
//   - RV "N": the events after N from the ring, then live; 410 Expired if
//     the ring no longer reaches back to N; 504 TooLargeResourceVersion if N
//     is ahead of etcd itself.
//   - sendInitialEvents=false: no initial events; "" starts at etcd's
//     current revision, "0" at the cache's.
func (c *Cacher) Watch(ctx context.Context, prefix string, opts store.ListOptions) (api.Watcher, error) {
	if err := validateWatchOptions(opts); err != nil {
		return nil, err
	}
	requestedRV, err := parseResourceVersion(opts.ResourceVersion)
	if err != nil {
		return nil, err
	}
	if err := c.WaitReady(ctx); err != nil {
		return nil, api.NewServiceUnavailable(err.Error())
	}
	sendInitial := requestedRV == 0 && opts.SendInitialEvents == nil
	if opts.SendInitialEvents != nil {
		sendInitial = *opts.SendInitialEvents
	}
	endBookmark := sendInitial && opts.SendInitialEvents != nil && opts.AllowWatchBookmarks
	consistent := opts.ResourceVersion == ""

	indexValue, indexed := c.watchers.indexValueFor(opts.Predicate.Field)
	c.mu.Lock()
	bufferSize := c.watcherBufferSizeLocked(indexed)
	c.mu.Unlock()
	w := newCacheWatcher(bufferSize, newFilter(prefix, opts.Predicate), opts.AllowWatchBookmarks)
	w.indexValue, w.indexed = indexValue, indexed
	var initial []api.WatchEvent
	switch {
	case sendInitial:
		initial, err = c.registerWithState(ctx, w, prefix, opts, requestedRV, consistent, endBookmark)
	case consistent || requestedRV > 0:
		startRV := requestedRV
		if consistent {
			if startRV, err = c.storage.CurrentResourceVersion(ctx); err != nil {
				return nil, err
			}
		}
		initial, err = c.registerFrom(ctx, w, startRV)
	default: // "0" without initial events: from wherever the cache is.
		c.mu.Lock()
		initial, err = c.registerFromLocked(w, c.cache.resourceVersion)
		c.mu.Unlock()
	}
	if err != nil {
		return nil, err
	}
	go w.process(ctx, initial)
	return w, nil
}

// registerWithState starts w with the current state as ADDED events. The
// state comes from memory when the cache is fresh enough, else from a list
// of the underlying store (then the ring's newer events follow it).
func (c *Cacher) registerWithState(ctx context.Context, w *cacheWatcher, prefix string, opts store.ListOptions,
	minRV uint64, consistent, endBookmark bool) ([]api.WatchEvent, error) {
	if consistent {
		var err error
		if minRV, err = c.storage.CurrentResourceVersion(ctx); err != nil {
			return nil, err
		}
	}
	if c.waitFresh(ctx, minRV) {
		c.mu.Lock()
		defer c.mu.Unlock()
		elems := c.cache.list(w.filter)
		rv := c.cache.resourceVersion
		initial := make([]api.WatchEvent, 0, len(elems)+1)
		for _, e := range elems {
			initial = append(initial, api.WatchEvent{Type: api.Added, Object: e.Object})
		}
		if endBookmark {
			initial = append(initial, api.WatchEvent{Type: api.Bookmark, Object: bookmarkObject(c.info, rv, true)})
		}
		w.startRV = rv
		c.addWatcherLocked(w)
		return initial, nil
	}

	list, err := c.storage.List(ctx, prefix, store.ListOptions{
		ResourceVersion: "",
		Predicate:       store.SelectionPredicate{Label: opts.Predicate.Label, Field: opts.Predicate.Field},
	})
	if err != nil {
		return nil, err
	}
	initial := make([]api.WatchEvent, 0, len(list.Items)+1)
	for _, o := range list.Items {
		initial = append(initial, api.WatchEvent{Type: api.Added, Object: o})
	}
	if endBookmark {
		initial = append(initial, api.WatchEvent{Type: api.Bookmark, Object: bookmarkObject(c.info, list.ResourceVersion, true)})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	replay, err := c.registerFromLocked(w, list.ResourceVersion)
	if err != nil {
		return nil, err
	}
	return append(initial, replay...), nil
}

// registerFrom starts w after revision startRV. A startRV the cache has not
// reached is fine as long as etcd has: the events up to it are skipped as
// they arrive.
func (c *Cacher) registerFrom(ctx context.Context, w *cacheWatcher, startRV uint64) ([]api.WatchEvent, error) {
	if startRV > c.resourceVersion() {
		current, err := c.storage.CurrentResourceVersion(ctx)
		if err != nil {
			return nil, err
		}
		if startRV > current {
			return nil, api.NewTooLargeResourceVersion(startRV, current, 1)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.registerFromLocked(w, startRV)
}

// registerFromLocked replays the ring's events after startRV through w's
// filter and registers w for the live ones.
func (c *Cacher) registerFromLocked(w *cacheWatcher, startRV uint64) ([]api.WatchEvent, error) {
	var initial []api.WatchEvent
	if startRV < c.cache.resourceVersion {
		events, err := c.cache.eventsSince(startRV)
		if err != nil {
			return nil, err
		}
		for _, ev := range events {
			if we, ok := watchEventFor(ev, w.filter); ok {
				initial = append(initial, we)
			}
		}
	}
	w.startRV = max(startRV, c.cache.resourceVersion)
	c.addWatcherLocked(w)
	return initial, nil
}

// waitFresh reports whether the cache has reached minRV, asking etcd for a
// progress notification and waiting up to FreshnessTimeout when the store
// supports that. false means "serve this from the store instead".
func (c *Cacher) waitFresh(ctx context.Context, minRV uint64) bool {
	c.mu.RLock()
	fresh := c.ready && c.cache.resourceVersion >= minRV
	c.mu.RUnlock()
	if fresh {
		return true
	}
	if c.progress == nil {
		return false
	}
	if err := c.progress.RequestWatchProgress(ctx); err != nil {
		c.log.Warn("request watch progress", "err", err)
		return false
	}
	deadline := time.NewTimer(c.opts.FreshnessTimeout)
	defer deadline.Stop()
	for {
		c.mu.RLock()
		fresh, changed := c.ready && c.cache.resourceVersion >= minRV, c.changed
		c.mu.RUnlock()
		if fresh {
			return true
		}
		select {
		case <-changed:
		case <-deadline.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}
