package garbagecollector

import (
	"context"
	"fmt"

	"kubeloop/api"
)

// attemptToDeleteItem decides, from live reads, what to do with one object
// whose owners may be gone:
//
//   - it is being deleted in the foreground: wait for its blocking
//     dependents (processDeletingDependentsItem);
//   - some owner is alive and not waiting for it: drop only the references
//     to owners that are gone (or waiting for their dependents to go);
//   - no live owner, but an owner deleting in the foreground waits for it
//     and it has dependents of its own: delete it in the foreground too, so
//     the wait propagates down;
//   - otherwise: no owner needs it, delete it (Background, unless a
//     finalizer already on it asks for orphan or foreground).
func (gc *Controller) attemptToDeleteItem(ctx context.Context, item *node) error {
	gb := gc.dependencyGraphBuilder
	beingDeleted, deletingDependents, _ := gb.state(item)
	if beingDeleted && !deletingDependents {
		// Deletion is a one-way trip; the delete event will bring us back
		// for its dependents.
		return nil
	}
	id := gb.identity(item)
	latest, err := gc.getObject(ctx, id)
	if api.IsNotFound(err) {
		gb.processVirtualDeletion(id)
		return errVirtualDeletion
	}
	if err != nil {
		return err
	}
	lm := latest.GetObjectMeta()
	if lm.UID != id.UID {
		gb.processVirtualDeletion(id)
		return errVirtualDeletion
	}
	if gb.isDeletingDependents(item) {
		return gc.processDeletingDependentsItem(ctx, item)
	}
	if len(lm.OwnerReferences) == 0 {
		return nil
	}

	solid, dangling, waiting, err := gc.classifyReferences(ctx, id, lm.OwnerReferences)
	if err != nil {
		return err
	}
	switch {
	case len(solid) != 0:
		if len(dangling) == 0 && len(waiting) == 0 {
			return nil
		}
		// A reference to an owner waiting for its dependents must go too,
		// or that owner would wait for an object that is staying.
		return gc.removeOwnerReferences(ctx, id, append(uidsOf(dangling), uidsOf(waiting)...)...)
	case len(waiting) != 0 && len(gb.dependents(item)) != 0:
		// Kubernetes first makes the item's own references non-blocking if
		// one of its dependents is itself deleting in the foreground, to
		// break a possible cycle; we leave cycles out.
		return gc.deleteItem(ctx, item, id, lm.ResourceVersion, api.DeletePropagationForeground)
	default:
		policy := api.DeletePropagationBackground
		switch {
		case hasFinalizer(lm, api.FinalizerOrphanDependents):
			policy = api.DeletePropagationOrphan
		case hasFinalizer(lm, api.FinalizerDeleteDependents):
			policy = api.DeletePropagationForeground
		}
		return gc.deleteItem(ctx, item, id, lm.ResourceVersion, policy)
	}
}

// deleteItem deletes the item at the resourceVersion its owners were
// checked at; if it is already gone, the graph is told.
func (gc *Controller) deleteItem(ctx context.Context, item *node, id objectReference, rv string, policy api.DeletionPropagation) error {
	err := gc.deleteObject(ctx, id, rv, policy)
	if api.IsNotFound(err) {
		gc.dependencyGraphBuilder.processVirtualDeletion(id)
		return errVirtualDeletion
	}
	if err != nil {
		return fmt.Errorf("delete %s: %w", id, err)
	}
	return nil
}

// isDangling reports whether the owner ref points at is gone: no object of
// that name, or one with another UID. It returns the owner when it exists.
func (gc *Controller) isDangling(ctx context.Context, ref api.OwnerReference, dependent objectReference) (bool, api.Object, error) {
	owner := ownerIdentity(ref, dependent.Namespace)
	if gc.absentOwnerCache.Has(owner) {
		return true, nil, nil
	}
	info, _, err := gc.resolve(owner)
	if err != nil {
		return false, nil, err
	}
	if dependent.Namespace == "" && info.Namespaced {
		// A cluster-scoped object cannot be owned by a namespaced one; the
		// reference can never resolve.
		return false, nil, fmt.Errorf("cluster-scoped %s refers to namespaced owner %s", dependent, owner)
	}
	obj, err := gc.getObject(ctx, owner)
	switch {
	case api.IsNotFound(err):
		gc.absentOwnerCache.Add(owner)
		return true, nil, nil
	case err != nil:
		return false, nil, err
	}
	if obj.GetObjectMeta().UID != ref.UID {
		gc.absentOwnerCache.Add(owner)
		return true, nil, nil
	}
	return false, obj, nil
}

// classifyReferences sorts an object's owner references: solid (the owner
// exists and is not waiting), dangling (the owner is gone) and waiting (the
// owner is being deleted in the foreground, waiting for its dependents).
func (gc *Controller) classifyReferences(ctx context.Context, dependent objectReference, refs []api.OwnerReference) (solid, dangling, waiting []api.OwnerReference, err error) {
	for _, ref := range refs {
		isDangling, owner, err := gc.isDangling(ctx, ref, dependent)
		if err != nil {
			return nil, nil, nil, err
		}
		if isDangling {
			dangling = append(dangling, ref)
			continue
		}
		om := owner.GetObjectMeta()
		if om.DeletionTimestamp != nil && hasFinalizer(om, api.FinalizerDeleteDependents) {
			waiting = append(waiting, ref)
		} else {
			solid = append(solid, ref)
		}
	}
	return solid, dangling, waiting, nil
}

// processDeletingDependentsItem handles an owner deleting in the
// foreground: while dependents block it, make sure each is on its way out;
// once none is left, remove the foregroundDeletion finalizer so the
// apiserver can remove the owner.
func (gc *Controller) processDeletingDependentsItem(ctx context.Context, item *node) error {
	gb := gc.dependencyGraphBuilder
	blocking := gb.blockingDependents(item)
	if len(blocking) == 0 {
		return gc.removeFinalizer(ctx, gb.identity(item), api.FinalizerDeleteDependents)
	}
	for _, d := range blocking {
		if !gb.isDeletingDependents(d) {
			gc.attemptToDelete.Add(d)
		}
	}
	return nil
}

func uidsOf(refs []api.OwnerReference) []string {
	out := make([]string, 0, len(refs))
	for _, r := range refs {
		out = append(out, r.UID)
	}
	return out
}
