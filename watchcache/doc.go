// Package watchcache serves LIST and WATCH of one resource from memory, with
// Kubernetes' resourceVersion semantics, in front of the etcd store.
//
// Where it sits: spine arrow 3 of "scale to 5", seen from the server
// (docs/architecture.md); reading-path step 3 (docs/reading-path.md).
//
//	apiserver ──▶ watchcache.Cacher ──▶ store.Store ──▶ etcd
//
// A Cacher implements store.Interface, so the apiserver does not know
// whether it talks to the cache or to etcd. Writes go straight to the store
// (GuaranteedUpdate and Delete get the cached object as a starting guess).
// Reads and watches are served from memory, fed by ONE etcd watch per
// resource however many clients watch: that is the whole point. Without it
// every informer of every controller would hold its own etcd watch and every
// re-list would be a full range read.
//
// The pieces (Kubernetes v1.37.2, staging/src/k8s.io/apiserver/pkg/storage/cacher/):
//
//   - reflector.go: Cacher.run — list at RV "", watch from the list's RV,
//     re-watch from the cache's RV when the stream ends, re-list on 410 or
//     failure (cacher.go: startCaching, which runs a client-go Reflector).
//   - watch_cache.go: watchCache — the current objects (key → object with
//     its labels and selectable fields precomputed) and processEvent, which
//     records each change with its previous state (watch_cache.go:
//     watchCache.processEvent, getAllEventsSinceLocked).
//   - ring.go: eventRing — the recent events; starts at 100, doubles up to
//     100·1024 while the oldest event is younger than 75 s, else drops the
//     oldest (watch_cache.go: resizeCacheLocked). Options.EventBufferCapacity
//     fixes the size. A watch from RV N older than the ring can serve fails
//     with 410 Expired "too old resource version: N (OLDEST)".
//   - watcher_index.go: indexedWatchers — which watchers an event is
//     offered to (skip on a first reading).
//   - cache_watcher.go: cacheWatcher — one client's stream, with the
//     ADDED/DELETED translation when a MODIFIED moves an object into or out
//     of its selector (cache_watcher.go: convertToWatchEvent, processInterval).
//   - cacher.go, cacher_watch.go, cacher_read.go: Cacher — dispatch,
//     bookmarks, Watch, GetList, Get (cacher.go: Cacher.Watch, GetList,
//     dispatchEvent; ready.go for Ready/WaitReady).
//   - validation.go: the 422s for bad watch/list option combinations
//     (apimachinery/pkg/apis/meta/internalversion/validation:
//     ValidateListOptions).
//
// Sharing: every object the cache hands out (list items, Get results, event
// objects) is the cache's own and shared by all callers and watchers, with no
// per-watcher copy. Callers must not change them; DeepCopy first.
//
// Slow watchers: each watcher has a bounded buffer (Options.WatcherBufferSize;
// by default 100, up to 1000 for a watch of all pods, as Kubernetes sizes it
// from the ring: watcher_buffer.go). When an event finds a buffer full, dispatch waits for room,
// drawing on a time budget shared by all slow watchers (time_budget.go;
// Options.DispatchTimeoutBudget, default 100 ms, refilled by half of it per
// second, as Kubernetes' dispatchEvent and timeBudget). A watcher still full
// when the budget is spent is closed
// (kubeloop_watchcache_terminated_watchers_total counts it) and its client
// re-watches from the last RV it saw. The wait happens without the cache's
// lock, so reads are not held up; the next event is.
//
// Re-list: when the cache has to re-list (its etcd watch failed, e.g. 410
// after a compaction), every open watch is closed. The events between the
// old state and the new list are not in the ring, so clients re-watch and,
// if their RV is now too old, get 410 and re-list, as with Kubernetes.
//
// Freshness. etcd's revision is global, so the cache only knows it is
// current up to the last event of its own resource. A read that must be at
// least as new as some revision R (LIST/WATCH with RV "", RV "N" with
// sendInitialEvents) is served from memory when the cache has reached R.
// Otherwise, if the store implements ProgressRequester (an etcd progress
// notification turned into a BOOKMARK on the store's watch), the cache asks
// for progress and waits up to Options.FreshnessTimeout; if it still cannot
// prove freshness, the read goes to the store (a LIST), or the initial
// state of the watch is read from the store and the ring's newer events
// follow it. store.Store offers it (store/watcher.go: RequestWatchProgress,
// progress notifications as bookmarks), so an idle resource's consistent
// reads are served from memory too, as with Kubernetes'
// ConsistentListFromCache. A plain watch from a future RV N needs no waiting: events
// up to N are skipped as they arrive; N beyond etcd's own revision is 504
// TooLargeResourceVersion at once (Kubernetes waits up to 3 s first).
//
// What we simplify, compared with Kubernetes:
//   - LIST with RV "0" ignores limit (as Kubernetes does), and limit with any
//     other RV, continue, and resourceVersionMatch=Exact go to the store.
//     Get serves only RV "0" from memory.
//   - One watcher index, on the kind's trigger field (pods: spec.nodeName,
//     nodes: metadata.name; watcher_index.go, Kubernetes' indexedWatchers);
//     no index by namespace, and other kinds' events are checked against
//     every watcher's filter.
//   - Instead of cachingObject (the event object wrapped with its
//     serializations), watchers offer EncodeObject: the apiserver's JSON of
//     an event object, made once and kept for the last 512 objects
//     (encode_memo.go). Tables and bookmarks are still encoded per watcher.
//   - One periodic bookmark tick for all watchers (Options.BookmarkInterval,
//     default 1 minute) instead of per-watcher time buckets; a full buffer
//     skips the bookmark rather than closing the watcher. The
//     initial-events-end bookmark is sent only with allowWatchBookmarks,
//     as in Kubernetes.
//   - The ring only grows; Kubernetes also shrinks it when history is old.
//   - Once a newer version of a key arrives, the older one is kept in the
//     ring as its differences from the newer one and rebuilt when a watch
//     replays it (superseded.go, a memory saving); Kubernetes keeps every
//     version whole.
//   - A watch with RV "" and no sendInitialEvents is served from memory
//     (consistent, as above) rather than delegated to etcd.
package watchcache
