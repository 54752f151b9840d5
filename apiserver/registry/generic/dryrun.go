package generic

import (
	"context"
	"fmt"

	"kubeloop/api"
	"kubeloop/store"
)

// DryRunnableStorage is a resource's storage that, when a write is a dry
// run, only pretends: it makes every check the real write would make — the
// key is free, the preconditions hold, the update function accepts the
// current object, the delete is allowed — and answers what would have been
// stored, without writing anything. Everything before storage (defaulting,
// admission, the strategy's preparation and validation) has already run
// for real. Kubernetes: registry/generic/registry/dryrun.go
// (DryRunnableStorage).
type DryRunnableStorage struct {
	Storage store.Interface
	// Info names the resource in errors.
	Info *api.ResourceInfo
}

// Get reads one object.
func (s DryRunnableStorage) Get(ctx context.Context, key string, opts store.GetOptions) (api.Object, error) {
	return s.Storage.Get(ctx, key, opts)
}

// List reads the objects under prefix.
func (s DryRunnableStorage) List(ctx context.Context, prefix string, opts store.ListOptions) (*store.ListResult, error) {
	return s.Storage.List(ctx, prefix, opts)
}

// Watch streams the changes under prefix.
func (s DryRunnableStorage) Watch(ctx context.Context, prefix string, opts store.ListOptions) (api.Watcher, error) {
	return s.Storage.Watch(ctx, prefix, opts)
}

// Create stores obj under key; a dry run only checks that the key is free
// and answers obj, which has no resourceVersion since nothing was written.
func (s DryRunnableStorage) Create(ctx context.Context, key string, obj api.Object, dryRun bool) (api.Object, error) {
	if !dryRun {
		return s.Storage.Create(ctx, key, obj)
	}
	_, err := s.Storage.Get(ctx, key, store.GetOptions{})
	switch {
	case err == nil:
		return nil, api.NewAlreadyExists(s.Info.GroupResource(), obj.GetObjectMeta().Name)
	case !api.IsNotFound(err):
		return nil, err
	}
	return obj, nil
}

// GuaranteedUpdate is store.Interface's read-modify-write; a dry run reads
// the current object, checks the preconditions and answers what tryUpdate
// makes of it.
func (s DryRunnableStorage) GuaranteedUpdate(ctx context.Context, key string, preconditions *store.Preconditions, tryUpdate store.UpdateFunc, dryRun bool) (api.Object, error) {
	if !dryRun {
		return s.Storage.GuaranteedUpdate(ctx, key, preconditions, tryUpdate, nil)
	}
	cur, err := s.Storage.Get(ctx, key, store.GetOptions{})
	if err != nil {
		return nil, err
	}
	if err := s.checkPreconditions(preconditions, cur); err != nil {
		return nil, err
	}
	return tryUpdate(cur.DeepCopyObject())
}

// Delete removes the object at key; a dry run checks the preconditions and
// validate and answers the object as it is.
func (s DryRunnableStorage) Delete(ctx context.Context, key string, preconditions *store.Preconditions, validate store.ValidateDeletionFunc, dryRun bool) (api.Object, error) {
	if !dryRun {
		return s.Storage.Delete(ctx, key, preconditions, validate, nil)
	}
	cur, err := s.Storage.Get(ctx, key, store.GetOptions{})
	if err != nil {
		return nil, err
	}
	if err := s.checkPreconditions(preconditions, cur); err != nil {
		return nil, err
	}
	if validate != nil {
		if err := validate(cur); err != nil {
			return nil, err
		}
	}
	return cur, nil
}

// checkPreconditions is the Conflict storage answers when a precondition
// fails, in the same words.
func (s DryRunnableStorage) checkPreconditions(p *store.Preconditions, obj api.Object) error {
	if p == nil {
		return nil
	}
	m := obj.GetObjectMeta()
	var err error
	switch {
	case p.UID != nil && *p.UID != m.UID:
		err = fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, m.UID)
	case p.ResourceVersion != nil && *p.ResourceVersion != m.ResourceVersion:
		err = fmt.Errorf("Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v", *p.ResourceVersion, m.ResourceVersion)
	default:
		return nil
	}
	return api.NewConflict(s.Info.GroupResource(), m.Name, err)
}
