package namespace

import (
	"context"

	"kubeloop/api"
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// REST is the REST storage of namespaces: the generic Store, except that a
// delete does not remove the namespace but marks it Terminating; the
// namespace controller empties it and then removes the "kubernetes"
// finalizer through namespaces/NAME/finalize (FinalizeREST). Kubernetes:
// pkg/registry/core/namespace/storage/storage.go (REST).
type REST struct {
	*generic.Store
	// OnTerminating is told the name of every namespace Delete marks, so
	// that whoever empties namespaces can start at once.
	OnTerminating func(name string)
}

var (
	_ rest.GracefulDeleter   = (*REST)(nil)
	_ rest.CollectionDeleter = (*REST)(nil)
)

// NewStorage is the REST storage of namespaces, namespaces/status and
// namespaces/finalize. onTerminating may be nil.
func NewStorage(o generic.Options, onTerminating func(name string)) (*REST, map[string]rest.Storage) {
	store := generic.NewStore(o, NewStrategy(o.Info))
	store.ShouldDeleteDuringUpdate = shouldDeleteDuringUpdate
	finalize := *store
	finalize.UpdateStrategy = FinalizeStrategy{Info: o.Info}
	r := &REST{Store: store, OnTerminating: onTerminating}
	return r, map[string]rest.Storage{
		"":         r,
		"status":   generic.NewStatusREST(store),
		"finalize": &FinalizeREST{store: &finalize},
	}
}

// Delete starts the deletion of a namespace: it becomes Terminating with a
// deletionTimestamp, and stays until it is empty. A dry run answers the
// namespace as it would be marked and changes nothing. Kubernetes:
// REST.Delete.
func (r *REST) Delete(ctx context.Context, name string, deleteValidation rest.ValidateObjectFunc, opts *api.DeleteOptions) (api.Object, error) {
	dryRun := rest.IsDryRun(opts.DryRun)
	cur, err := r.Store.Get(ctx, name, &rest.GetOptions{})
	if err != nil {
		return nil, err
	}
	if err := generic.CheckPreconditions(r.Info, cur, opts.Preconditions); err != nil {
		return nil, err
	}
	if deleteValidation != nil {
		if err := deleteValidation(ctx, cur); err != nil {
			return nil, err
		}
	}
	if cur.GetObjectMeta().DeletionTimestamp != nil {
		// Already terminating: it goes once nothing holds it any more,
		// which only the finalize subresource (or a metadata finalizer's
		// removal) can bring about. Kubernetes: REST.Delete, "prior to
		// final deletion, we must ensure that finalizers is empty".
		if dryRun || !shouldDeleteDuringUpdate(cur) {
			return cur, nil
		}
		return r.FinishDeletion(ctx, cur)
	}
	out, err := r.Storage.GuaranteedUpdate(ctx, r.KeyFunc(ctx, name), nil, func(cur api.Object) (api.Object, error) {
		ns := cur.(*api.Namespace)
		if ns.DeletionTimestamp == nil {
			now := api.Now()
			zero := int64(0)
			ns.DeletionTimestamp, ns.DeletionGracePeriodSeconds = &now, &zero
		}
		ns.Status.Phase = api.NamespaceTerminating
		return ns, nil
	}, dryRun)
	if dryRun {
		return out, err
	}
	r.LogWrite("delete", cur, out, err)
	if err != nil {
		return nil, err
	}
	if r.OnTerminating != nil {
		r.OnTerminating(name)
	}
	return out, nil
}

// DeleteCollection marks every selected namespace, each as Delete does.
func (r *REST) DeleteCollection(ctx context.Context, deleteValidation rest.ValidateObjectFunc, opts *api.DeleteOptions, listOpts *rest.ListOptions) (api.ListObject, error) {
	return generic.DeleteCollection(ctx, r, r, rest.KindOf(r.Info), deleteValidation, opts, listOpts)
}

// FinalizeREST serves PUT namespaces/NAME/finalize: the one write that
// may change spec.finalizers. The namespace controller removes the
// "kubernetes" finalizer through it once the namespace is empty, and the
// write that leaves a terminating namespace with no finalizer at all
// removes it. Kubernetes: FinalizeREST.Update.
type FinalizeREST struct {
	store *generic.Store
}

var _ rest.Updater = (*FinalizeREST)(nil)

// New is an empty Namespace.
func (r *FinalizeREST) New() api.Object { return r.store.New() }

// Update writes spec.finalizers (and metadata) from the body, keeping the
// stored status.
func (r *FinalizeREST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, updateValidation rest.ValidateObjectUpdateFunc, opts *rest.UpdateOptions) (api.Object, error) {
	return r.store.Update(ctx, name, objInfo, updateValidation, opts)
}

// shouldDeleteDuringUpdate: a namespace goes only when its spec.finalizers
// are gone too. Kubernetes: ShouldDeleteNamespaceDuringUpdate.
func shouldDeleteDuringUpdate(obj api.Object) bool {
	ns, ok := obj.(*api.Namespace)
	return ok && len(ns.Spec.Finalizers) == 0 && generic.ShouldDeleteDuringUpdate(obj)
}
