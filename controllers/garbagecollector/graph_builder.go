package garbagecollector

import (
	"log/slog"
	"sync"

	"kubeloop/api"
	"kubeloop/informer"
	"kubeloop/workqueue"
)

// graphBuilder keeps the dependency graph equal to what the informers show
// and turns the changes that matter into work on the two queues: objects
// whose owners may be gone go to attemptToDelete, owners being deleted with
// the orphan finalizer go to attemptToOrphan.
//
// Kubernetes funnels informer events through a graphChanges queue drained
// by one goroutine (processGraphChanges). We apply each event directly in
// the informer's handler, under mu: the effect is the same serial order,
// and a handler registration's HasSynced then also means "the graph holds
// the initial list", which is what the workers must wait for.
type graphBuilder struct {
	log *slog.Logger

	mu    sync.Mutex
	graph *graph

	attemptToDelete workqueue.TypedRateLimitingInterface[*node]
	attemptToOrphan workqueue.TypedRateLimitingInterface[*node]
}

// handlerFor is the event handler of one kind's informer.
func (gb *graphBuilder) handlerFor(info *api.ResourceInfo) informer.ResourceEventHandler {
	return informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj any, _ bool) {
			if o, ok := obj.(api.Object); ok {
				gb.processObject(info, nil, o)
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			o, ok := newObj.(api.Object)
			if !ok {
				return
			}
			old, _ := oldObj.(api.Object)
			gb.processObject(info, old, o)
		},
		DeleteFunc: func(obj any) {
			if t, ok := obj.(informer.DeletedFinalStateUnknown); ok {
				obj = t.Obj
			}
			if o, ok := obj.(api.Object); ok {
				gb.processDeletion(o.GetObjectMeta().UID)
			}
		},
	}
}

// processObject is processGraphChanges for an add or update: insert or
// refresh the node, relink it under its owners, then look at the deletion
// transitions.
func (gb *graphBuilder) processObject(info *api.ResourceInfo, oldObj, obj api.Object) {
	m := obj.GetObjectMeta()
	var oldMeta *api.ObjectMeta
	if oldObj != nil {
		oldMeta = oldObj.GetObjectMeta()
	}
	gb.mu.Lock()
	defer gb.mu.Unlock()

	n, found := gb.graph.uidToNode[m.UID]
	if found && n.virtual {
		// An owner we had only heard of has now been observed.
		n.virtual = false
		n.identity = identityOf(info, obj)
	}
	owners := append([]api.OwnerReference(nil), m.OwnerReferences...)
	if !found {
		n = newNode(identityOf(info, obj))
		n.owners = owners
		n.beingDeleted = m.DeletionTimestamp != nil
		n.deletingDependents = n.beingDeleted && hasFinalizer(m, api.FinalizerDeleteDependents)
		for _, v := range gb.graph.insertNode(n) {
			gb.attemptToDelete.Add(v)
		}
		gb.processTransitions(nil, m, n)
		return
	}
	added, removed, changed := referencesDiffs(n.owners, owners)
	if len(added)+len(removed)+len(changed) > 0 {
		gb.addUnblockedOwnersToDeleteQueue(removed, changed)
		gb.graph.removeDependentFromOwners(n, removed)
		n.owners = owners
		for _, v := range gb.graph.addDependentToOwners(n, added) {
			gb.attemptToDelete.Add(v)
		}
	}
	if m.DeletionTimestamp != nil {
		n.beingDeleted = true
	}
	gb.processTransitions(oldMeta, m, n)
}

// processTransitions queues an owner whose deletion just started with one of
// the garbage collector's finalizers.
func (gb *graphBuilder) processTransitions(oldMeta, m *api.ObjectMeta, n *node) {
	if deletionStartsWithFinalizer(oldMeta, m, api.FinalizerOrphanDependents) {
		gb.log.Info("owner is being deleted with orphan finalizer", "owner", n.identity)
		gb.attemptToOrphan.Add(n)
		return
	}
	if deletionStartsWithFinalizer(oldMeta, m, api.FinalizerDeleteDependents) {
		gb.log.Info("owner is being deleted in the foreground", "owner", n.identity)
		n.deletingDependents = true
		for _, d := range gb.graph.dependentsOf(n) {
			gb.attemptToDelete.Add(d)
		}
		gb.attemptToDelete.Add(n)
	}
}

// deletionStartsWithFinalizer: m is being deleted with finalizer, and was
// not already (a first sight counts as a start, so a restarted collector
// picks up deletions in progress).
func deletionStartsWithFinalizer(oldMeta, m *api.ObjectMeta, finalizer string) bool {
	if m.DeletionTimestamp == nil || !hasFinalizer(m, finalizer) {
		return false
	}
	if oldMeta == nil {
		return true
	}
	return oldMeta.DeletionTimestamp == nil || !hasFinalizer(oldMeta, finalizer)
}

// addUnblockedOwnersToDeleteQueue wakes up foreground-deleting owners that a
// dependent stopped blocking: it dropped its reference to them, or turned
// blockOwnerDeletion off.
func (gb *graphBuilder) addUnblockedOwnersToDeleteQueue(removed, changed []api.OwnerReference) {
	for _, ref := range append(append([]api.OwnerReference(nil), removed...), changed...) {
		if !isBlocking(ref) {
			continue
		}
		if owner, ok := gb.graph.uidToNode[ref.UID]; ok && owner.deletingDependents {
			gb.attemptToDelete.Add(owner)
		}
	}
}

// processDeletion is processGraphChanges for a delete: the node leaves the
// graph, its dependents are checked for a missing owner, and its owners
// that wait for their dependents to go are checked again.
func (gb *graphBuilder) processDeletion(uid string) {
	gb.mu.Lock()
	defer gb.mu.Unlock()
	n, ok := gb.graph.uidToNode[uid]
	if !ok {
		return
	}
	gb.removeLocked(n)
}

// processVirtualDeletion is what a live GET that found nothing (or another
// UID) tells us about a node no informer has shown: the object does not
// exist. An observed node is left alone; its informer will report the
// deletion itself.
func (gb *graphBuilder) processVirtualDeletion(id objectReference) {
	gb.mu.Lock()
	defer gb.mu.Unlock()
	n, ok := gb.graph.uidToNode[id.UID]
	if !ok || !n.virtual {
		return
	}
	gb.log.Info("owner does not exist", "owner", id)
	gb.removeLocked(n)
}

func (gb *graphBuilder) removeLocked(n *node) {
	gb.graph.removeNode(n)
	for _, d := range gb.graph.dependentsOf(n) {
		gb.attemptToDelete.Add(d)
	}
	for _, ref := range n.owners {
		if owner, ok := gb.graph.uidToNode[ref.UID]; ok && owner.deletingDependents {
			gb.attemptToDelete.Add(owner)
		}
	}
}

// The readers below take a consistent snapshot of a node for a worker.

func (gb *graphBuilder) state(n *node) (beingDeleted, deletingDependents, virtual bool) {
	gb.mu.Lock()
	defer gb.mu.Unlock()
	return n.beingDeleted, n.deletingDependents, n.virtual
}

func (gb *graphBuilder) dependents(n *node) []*node {
	gb.mu.Lock()
	defer gb.mu.Unlock()
	return gb.graph.dependentsOf(n)
}

func (gb *graphBuilder) blockingDependents(n *node) []*node {
	gb.mu.Lock()
	defer gb.mu.Unlock()
	return gb.graph.blockingDependents(n)
}

func (gb *graphBuilder) isDeletingDependents(n *node) bool {
	gb.mu.Lock()
	defer gb.mu.Unlock()
	return n.deletingDependents
}

func (gb *graphBuilder) identity(n *node) objectReference {
	gb.mu.Lock()
	defer gb.mu.Unlock()
	return n.identity
}
