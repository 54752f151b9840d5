package namespace

import (
	"context"

	"kubeloop/api"
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// REST is the REST storage of namespaces: the generic Store, except that a
// delete does not remove the namespace but marks it Terminating; the
// namespace finalizer empties it and then calls Finalize. Kubernetes:
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

// NewStorage is the REST storage of namespaces and namespaces/status.
// onTerminating may be nil.
func NewStorage(o generic.Options, onTerminating func(name string)) (*REST, map[string]rest.Storage) {
	r := &REST{Store: generic.NewStore(o, NewStrategy(o.Info)), OnTerminating: onTerminating}
	return r, map[string]rest.Storage{
		"":       r,
		"status": generic.NewStatusREST(r.Store),
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

// Finalize drops the "kubernetes" finalizer of an emptied namespace and,
// if nothing else holds it, removes it. Kubernetes: FinalizeREST.Update,
// which the namespace controller calls through namespaces/NAME/finalize.
func (r *REST) Finalize(ctx context.Context, name string) (api.Object, error) {
	out, err := r.Storage.GuaranteedUpdate(ctx, r.KeyFunc(ctx, name), nil, func(cur api.Object) (api.Object, error) {
		ns := cur.(*api.Namespace)
		var keep []api.FinalizerName
		for _, f := range ns.Spec.Finalizers {
			if f != api.FinalizerKubernetes {
				keep = append(keep, f)
			}
		}
		ns.Spec.Finalizers = keep
		return ns, nil
	}, false)
	if err != nil {
		return nil, err
	}
	ns := out.(*api.Namespace)
	if len(ns.Spec.Finalizers) == 0 && len(ns.Finalizers) == 0 {
		return r.FinishDeletion(ctx, out)
	}
	return out, nil
}
