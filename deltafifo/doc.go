// Package deltafifo is the DeltaFIFO: a queue of object keys in which every
// key remembers what happened to it (added, updated, deleted, relisted,
// resynced) since a consumer last popped it.
//
// # Where it sits on the spine
//
//	apiserver ──watch──▶ reflector ──▶ DeltaFIFO ──Pop──▶ informer: indexer + handlers ──▶ workqueue
//
// The reflector is the producer: it calls Replace with the result of every
// LIST and Add/Update/Delete for every watch event. The informer is the
// consumer: Pop hands it one key's Deltas, and while Pop holds the queue's
// lock it applies them to its indexer and notifies its handlers. Because the
// indexer is also the queue's KnownObjects, the two never disagree about
// whether an object exists.
//
// What the queue teaches:
//   - Compression per key. A key is queued once, in order of first arrival,
//     however many events pile up on it; a slow consumer sees fewer, fuller
//     items instead of a growing backlog of stale ones.
//   - Tombstones. A relist (Replace) that no longer contains a known object
//     means the object was deleted while the watch was down. Nobody saw the
//     deletion, so the queue records Deleted with a DeletedFinalStateUnknown
//     holding the last state it knew. Delete handlers must accept that type,
//     which is why DeletionHandlingMetaNamespaceKeyFunc exists.
//   - Initial sync. HasSynced turns true once the first list has been
//     popped, which is what WaitForCacheSync waits for.
//
// # Kubernetes counterpart
//
// k8s.io/client-go v0.37.2, tools/cache/delta_fifo.go: queueActionLocked
// (append a delta and queue the key), dedupDeltas and isDeletionDup (collapse
// two trailing deletes), Delete (ignore unknown objects), Replace (Sync or
// Replaced deltas plus tombstones), Resync and syncKeyLocked, Pop. Names,
// delta types, options and the rules of each method are client-go's.
//
// MetaNamespaceKeyFunc lives in api/keys.go rather than here: every cache,
// lister and workqueue in kubeloop keys objects with it, and they should not
// need to import the queue to do so. DeletionHandlingMetaNamespaceKeyFunc
// lives here because it has to know the tombstone type, which is the queue's.
// (client-go keeps both in tools/cache, where everything lives together.)
//
// # RealFIFO, and why we teach the DeltaFIFO anyway
//
// Since the InOrderInformers feature (beta in 1.33, locked on in 1.36),
// client-go's shared informers no longer build a DeltaFIFO: they use RealFIFO
// (tools/cache/the_real_fifo.go), which keeps every event as its own entry,
// in arrival order, instead of folding them into one Deltas list per key.
// That delivers events across keys in the order the watch saw them and lets
// handlers process them in batches. kubeloop implements the classic DeltaFIFO
// because it is the design the reading path walks through (and what most
// existing explanations of informers describe), and because per-key
// compression and tombstones are easiest to see when a key's history sits in
// one place. RealFIFO keeps the same tombstone and Replace ideas; only the
// per-key folding differs.
//
// # What we simplify
//
//   - No logger, name, metrics or traces; a known key without an object is
//     logged with log/slog and tombstoned with a nil Obj, as client-go does.
//   - No DoneChecker channel: HasSynced is a plain boolean check.
//   - No AddIfNotPresent, no ReplacedAll, SyncAll or Bookmark delta types,
//     no batch Pop.
//   - Replace finds deletions of queued keys in queue order, not in the
//     random order of a map walk, so tests and examples are repeatable.
//   - Replace remembers its resourceVersion (LastSyncResourceVersion);
//     client-go ignores that argument.
//   - List, ListKeys, Get and GetByKey show what is queued. client-go's
//     DeltaFIFO had them in earlier releases but v0.37.2 no longer does; we keep
//     them because they make the queue's state easy to inspect in tests.
//   - Pop signals one waiter per newly queued key instead of waking every
//     waiter, and reuses popped space at the front of the queue.
package deltafifo
