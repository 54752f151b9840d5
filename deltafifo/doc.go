// Package deltafifo is the DeltaFIFO: a queue of object keys in which every
// key remembers what happened to it (added, updated, deleted, relisted,
// resynced) since a consumer last popped it.
//
// Where it sits: spine arrow 3, inside the controller; reading-path step 5
// (docs/reading-path.md).
//
//	apiserver ──watch──▶ reflector ──▶ DeltaFIFO ──Pop──▶ informer: indexer + handlers ──▶ workqueue
//
// The reflector produces: Replace for every LIST, Add/Update/Delete for every
// watch event. The informer consumes: Pop hands it one key's Deltas and,
// under the queue's lock, it applies them to its indexer, which is also the
// queue's KnownObjects, so the two never disagree about what exists.
//
// What the queue teaches: compression per key (a key is queued once, in
// order of first arrival, however many events pile up on it); tombstones (a
// relist that no longer contains a known object records Deleted with a
// DeletedFinalStateUnknown holding the last known state, which is why
// DeletionHandlingMetaNamespaceKeyFunc exists); initial sync (HasSynced
// once the first list has been popped, what WaitForCacheSync waits for).
//
// Kubernetes counterpart: client-go v0.37.2 tools/cache/delta_fifo.go —
// queueActionLocked, dedupDeltas and isDeletionDup, Delete, Replace, Resync
// and syncKeyLocked, Pop; names, delta types and options are client-go's.
// MetaNamespaceKeyFunc and KeyFunc live in api/keys.go, so caches and
// queues need not import this package to key objects.
//
// Since InOrderInformers (locked on in 1.36) client-go's informers use
// RealFIFO (tools/cache/the_real_fifo.go), which keeps every event as its
// own entry in arrival order. We teach the classic DeltaFIFO: it is what the
// reading path and most explanations of informers walk through, and per-key
// compression and tombstones are easiest to see with a key's history in one
// place; RealFIFO keeps the same tombstone and Replace ideas.
//
// What we simplify: no logger, metrics or traces (a known key without an
// object is logged with slog and tombstoned with a nil Obj, as client-go
// does); HasSynced is a boolean, not a DoneChecker; no AddIfNotPresent,
// ReplacedAll, SyncAll or Bookmark deltas, no batch Pop. Replace finds
// deletions of queued keys in queue order, not a map's random order, so
// tests repeat; it remembers its resourceVersion (LastSyncResourceVersion),
// which client-go ignores. List, ListKeys, Get and GetByKey (gone from
// client-go v0.37.2) show what is queued, for tests. Pop signals one waiter
// per newly queued key instead of waking all.
package deltafifo
