// Package deltafifo is the DeltaFIFO: a queue of object keys in which every
// key remembers what happened to it (added, updated, deleted, relisted,
// resynced) since a consumer last popped it. Spine arrow 3, inside the
// controller; reading-path step 5 (docs/reading-path.md):
//
//	apiserver ──watch──▶ reflector ──▶ DeltaFIFO ──Pop──▶ informer: indexer + handlers ──▶ workqueue
//
// The lessons: compression per key (queued once, in order of first
// arrival), tombstones (a relist that misses a known object records a
// DeletedFinalStateUnknown with its last known state) and initial sync
// (HasSynced once the first list is popped, what WaitForCacheSync awaits).
//
// Kubernetes counterpart: client-go v0.37.2 tools/cache/delta_fifo.go —
// queueActionLocked, dedupDeltas and isDeletionDup, Delete, Replace, Resync
// and syncKeyLocked, Pop. client-go's informers now use RealFIFO
// (the_real_fifo.go, every event its own entry); we teach the classic
// DeltaFIFO, which shows a key's history in one place, with the same
// tombstone and Replace ideas.
//
// What we simplify: no metrics; HasSynced is a boolean; no AddIfNotPresent,
// ReplacedAll, SyncAll or Bookmark deltas, no batch Pop. Replace tombstones
// queued keys in queue order, not a map's, so tests repeat.
package deltafifo
