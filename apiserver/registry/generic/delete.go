package generic

import (
	"context"
	"errors"
	"fmt"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/request"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/store"
)

// Delete deletes one object the way Kubernetes' Store.Delete does:
// preconditions, validating admission, then either removal at once, or —
// when the object has finalizers or needs a grace period (a pod on a node)
// — setting deletionTimestamp and leaving the removal to whoever clears
// them. A dry run changes nothing and answers the object as it would be
// after the delete: marked, or as it was when it would go at once.
func (e *Store) Delete(ctx context.Context, name string, deleteValidation rest.ValidateObjectFunc, opts *api.DeleteOptions) (api.Object, error) {
	dryRun := rest.IsDryRun(opts.DryRun)
	key := e.KeyFunc(ctx, name)
	cur, err := e.Storage.Get(ctx, key, store.GetOptions{})
	if err != nil {
		return nil, err
	}
	if err := CheckPreconditions(e.Info, cur, opts.Preconditions); err != nil {
		return nil, err
	}
	if deleteValidation != nil {
		if err := deleteValidation(ctx, cur); err != nil {
			return nil, err
		}
	}
	var grace int64
	if e.DeleteStrategy != nil {
		grace = e.DeleteStrategy.CheckGracefulDelete(ctx, cur, opts)
	}
	opts = e.withDefaultPropagation(ctx, cur, opts)
	finalizers := deletionFinalizersForGarbageCollection(cur.GetObjectMeta().Finalizers, opts)
	if grace == 0 && len(finalizers) == 0 {
		return e.removeNow(ctx, cur, opts)
	}
	out, err := e.Storage.GuaranteedUpdate(ctx, key, toStorePreconditions(opts.Preconditions), func(c api.Object) (api.Object, error) {
		m := c.GetObjectMeta()
		m.Finalizers = deletionFinalizersForGarbageCollection(m.Finalizers, opts)
		markDeleted(m, grace)
		return c, nil
	}, dryRun)
	if err != nil || dryRun {
		// A dry run answers the marked object: the removal that may
		// follow would only make it gone.
		if !dryRun {
			e.LogWrite("delete", cur, out, err)
		}
		return out, err
	}
	e.LogWrite("delete", cur, out, nil)
	m := out.GetObjectMeta()
	if len(m.Finalizers) == 0 && (m.DeletionGracePeriodSeconds == nil || *m.DeletionGracePeriodSeconds == 0) {
		return e.FinishDeletion(ctx, out)
	}
	return out, nil
}

// DeleteCollection deletes every object the list options select, each as
// Delete would. Kubernetes: Store.DeleteCollection.
func (e *Store) DeleteCollection(ctx context.Context, deleteValidation rest.ValidateObjectFunc, opts *api.DeleteOptions, listOpts *rest.ListOptions) (api.ListObject, error) {
	return DeleteCollection(ctx, e, e, rest.KindOf(e.Info), deleteValidation, opts, listOpts)
}

// DeleteCollection lists everything listOpts selects (all pages) and
// deletes each object through d, skipping those already gone; the answer
// is the list of what was deleted. Registries whose Delete is their own
// (namespaces) use it with themselves as d.
func DeleteCollection(ctx context.Context, l rest.Lister, d rest.GracefulDeleter, kind api.KindInfo, deleteValidation rest.ValidateObjectFunc, opts *api.DeleteOptions, listOpts *rest.ListOptions) (api.ListObject, error) {
	lo := *listOpts
	lo.Predicate.Limit, lo.Predicate.Continue = 0, ""
	list, err := l.List(ctx, &lo)
	if err != nil {
		return nil, err
	}
	items := list.GetItems()
	deleted := make([]api.Object, 0, len(items))
	for _, item := range items {
		m := item.GetObjectMeta()
		out, err := d.Delete(request.WithNamespace(ctx, m.Namespace), m.Name, deleteValidation, opts)
		if api.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		deleted = append(deleted, rest.WithTypeMeta(kind, out))
	}
	list.SetItems(deleted)
	return list, nil
}

// removeNow deletes the object from storage, guarded by its UID so a
// re-created object of the same name is never removed by mistake.
func (e *Store) removeNow(ctx context.Context, cur api.Object, opts *api.DeleteOptions) (api.Object, error) {
	m := cur.GetObjectMeta()
	pre := toStorePreconditions(opts.Preconditions)
	if pre == nil {
		uid := m.UID
		pre = &store.Preconditions{UID: &uid}
	}
	dryRun := rest.IsDryRun(opts.DryRun)
	out, err := e.Storage.Delete(ctx, e.Info.Key(m.Namespace, m.Name), pre, nil, dryRun)
	if !dryRun {
		e.LogWrite("delete", cur, out, err)
	}
	return out, err
}

// shouldDeleteDuringUpdate: the object is being deleted and this update
// leaves it with no finalizer and no grace period left. Any write that
// leaves a deleting object without finalizers finishes the deletion,
// whether or not it removed the last finalizer itself: if the write that
// did was overtaken (say by a status update) before its delete, the next
// write must not leave the object stuck. Kubernetes: Store.Update,
// shouldDeleteDuringUpdate.
func (e *Store) shouldDeleteDuringUpdate(next api.Object) bool {
	if e.ShouldDeleteDuringUpdate != nil {
		return e.ShouldDeleteDuringUpdate(next)
	}
	return ShouldDeleteDuringUpdate(next)
}

// ShouldDeleteDuringUpdate is the default test: being deleted, no
// finalizer, no grace period left. Kinds with more to wait for
// (namespaces and their spec.finalizers) add to it.
func ShouldDeleteDuringUpdate(next api.Object) bool {
	nm := next.GetObjectMeta()
	if nm.DeletionTimestamp == nil || len(nm.Finalizers) > 0 {
		return false
	}
	return nm.DeletionGracePeriodSeconds == nil || *nm.DeletionGracePeriodSeconds == 0
}

// errDeletionStillBlocked: the object gained a finalizer (or lost its
// deletionTimestamp, or got a grace period) between our write and our
// delete.
var errDeletionStillBlocked = errors.New("deletion is blocked again")

// FinishDeletion removes an object whose deletion is no longer blocked. It
// checks the object as it is at delete time rather than pinning the version
// just written: a concurrent write (a status update) must not leave it
// stuck. If the object is blocked again, or already gone, obj is returned.
func (e *Store) FinishDeletion(ctx context.Context, obj api.Object) (api.Object, error) {
	m := obj.GetObjectMeta()
	uid := m.UID
	stillUnblocked := func(cur api.Object) error {
		if !e.shouldDeleteDuringUpdate(cur) {
			return errDeletionStillBlocked
		}
		return nil
	}
	out, err := e.Storage.Delete(ctx, e.Info.Key(m.Namespace, m.Name), &store.Preconditions{UID: &uid}, stillUnblocked, false)
	switch {
	case err == nil:
		e.LogWrite("delete", obj, out, nil)
		return out, nil
	case errors.Is(err, errDeletionStillBlocked), api.IsConflict(err), api.IsNotFound(err):
		return obj, nil
	}
	return nil, err
}

// markDeleted sets deletionTimestamp (now plus the grace period) unless the
// deletion is already due sooner; a shorter grace period brings it forward.
func markDeleted(m *api.ObjectMeta, grace int64) {
	if m.DeletionTimestamp != nil && m.DeletionGracePeriodSeconds != nil && *m.DeletionGracePeriodSeconds <= grace {
		return
	}
	t := api.NewTime(time.Now().Add(time.Duration(grace) * time.Second))
	m.DeletionTimestamp = &t
	m.DeletionGracePeriodSeconds = &grace
}

// withDefaultPropagation gives a delete that names no policy the kind's
// default, unless the object already carries a garbage collector finalizer
// (which then decides, as in Kubernetes). Only an orphaning default changes
// anything: deleting dependents in the background is what a delete without
// finalizers already does. Kubernetes: Store.shouldOrphanDependents.
func (e *Store) withDefaultPropagation(ctx context.Context, cur api.Object, opts *api.DeleteOptions) *api.DeleteOptions {
	gc, ok := e.CreateStrategy.(rest.GarbageCollectionDeleteStrategy)
	if !ok || opts.PropagationPolicy != nil || opts.OrphanDependents != nil ||
		gc.DefaultGarbageCollectionPolicy(ctx) != rest.OrphanDependents {
		return opts
	}
	for _, f := range cur.GetObjectMeta().Finalizers {
		if f == api.FinalizerOrphanDependents || f == api.FinalizerDeleteDependents {
			return opts
		}
	}
	out := *opts
	orphan := api.DeletePropagationOrphan
	out.PropagationPolicy = &orphan
	return &out
}

// deletionFinalizersForGarbageCollection adds or removes the garbage
// collector's finalizers as the propagation policy asks. Kubernetes:
// Store.deletionFinalizersForGarbageCollection.
func deletionFinalizersForGarbageCollection(finalizers []string, opts *api.DeleteOptions) []string {
	policy := api.DeletionPropagation("")
	if opts.PropagationPolicy != nil {
		policy = *opts.PropagationPolicy
	} else if opts.OrphanDependents != nil && *opts.OrphanDependents {
		policy = api.DeletePropagationOrphan
	}
	out := append([]string(nil), finalizers...)
	switch policy {
	case api.DeletePropagationOrphan:
		out = addString(removeString(out, api.FinalizerDeleteDependents), api.FinalizerOrphanDependents)
	case api.DeletePropagationForeground:
		out = addString(removeString(out, api.FinalizerOrphanDependents), api.FinalizerDeleteDependents)
	case api.DeletePropagationBackground:
		out = removeString(removeString(out, api.FinalizerOrphanDependents), api.FinalizerDeleteDependents)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// CheckPreconditions is the 409 of a delete whose uid or resourceVersion
// precondition does not hold, in Kubernetes' words.
func CheckPreconditions(info *api.ResourceInfo, cur api.Object, p *api.Preconditions) error {
	if p == nil {
		return nil
	}
	m := cur.GetObjectMeta()
	if p.UID != nil && *p.UID != m.UID {
		return api.NewConflict(info.GroupResource(), m.Name, fmt.Errorf(
			"Precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, m.UID))
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != m.ResourceVersion {
		return api.NewConflict(info.GroupResource(), m.Name, fmt.Errorf(
			"Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v", *p.ResourceVersion, m.ResourceVersion))
	}
	return nil
}

func toStorePreconditions(p *api.Preconditions) *store.Preconditions {
	if p == nil || (p.UID == nil && p.ResourceVersion == nil) {
		return nil
	}
	return &store.Preconditions{UID: p.UID, ResourceVersion: p.ResourceVersion}
}

func addString(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func removeString(list []string, s string) []string {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}
