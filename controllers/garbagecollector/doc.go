// Package garbagecollector deletes objects whose owners are gone, and
// carries out the two deletion policies that need a controller: Foreground
// (the owner waits, with the foregroundDeletion finalizer, until its
// blocking dependents are gone) and Orphan (the dependents lose their
// owner reference, then the owner's orphan finalizer is removed). With it,
// `kubectl delete rs web` removes the pods too, as on a real cluster.
//
// Where it sits on the spine: it watches every kind of the registry through
// the shared informer factory. The graph builder (graph_builder.go) turns
// each add, update and delete into a graph keyed by UID, owner → dependents
// by ownerReference (graph.go), and queues work: a dependent whose owner
// disappeared, or an owner that started a foreground deletion, goes to
// attemptToDelete; an owner that started an orphan deletion goes to
// attemptToOrphan. Workers then decide from live GETs, never from the cache
// alone (attempt_to_delete.go, orphan.go), and write through the client
// with preconditions (operations.go): DELETE with the dependent's UID and
// resourceVersion, merge PATCHes of ownerReferences and finalizers at the
// resourceVersion just read. The apiserver does the rest: it sets the
// finalizers for Orphan and Foreground, and removes an object once its
// deletion is due and the last finalizer is gone.
//
// Kubernetes counterpart (v1.37.2): pkg/controller/garbagecollector/
// garbagecollector.go (Run, attemptToDeleteItem, classifyReferences,
// isDangling, processDeletingDependentsItem, attemptToOrphanWorker,
// orphanDependents), graph_builder.go (uidToNode, processGraphChanges,
// processTransitions, referencesDiffs, addUnblockedOwnersToDeleteQueue),
// graph.go (node), uid_cache.go (the absent owner cache) and operations.go.
//
// What we simplify:
//   - Graph changes are applied in the informers' handlers under one lock
//     instead of through a graphChanges queue and its own goroutine; the
//     order is the same, and a handler's HasSynced then means the graph
//     holds the initial list, which Run waits for before any worker acts.
//   - The built-in kinds (api.Builtin().All() minus Events, which
//     Kubernetes ignores too) are watched from the start through the shared
//     informers; kinds beyond them (custom resources) are found by
//     discovery every Options.DiscoveryPeriod (5 s; Kubernetes: 30 s) and
//     watched by informers of their own, stopped when the kind goes away
//     (custom_resources.go). Workers do not pause while a new monitor
//     syncs, as Kubernetes' do: every deletion is re-checked by a live GET.
//   - Ownership cycles under foreground deletion are not broken (Kubernetes
//     makes a dependent's references non-blocking when it detects one).
//   - One graph-wide lock instead of a lock per node.
//   - Removing owner references and finalizers uses JSON merge patches with
//     a resourceVersion precondition and re-reads on conflict; Kubernetes
//     tries a strategic merge patch first.
package garbagecollector
