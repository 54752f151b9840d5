package customresource

import (
	"context"

	"kubeloop/api"
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/store"
)

// NewStorage is the REST storage of one served version: the resource, and
// its status and scale subresources when the version has them. o.Storage
// is the CRD's one storage (etcd behind the watch cache), shared by every
// version; o.Info is this version's kind. Kubernetes:
// pkg/registry/customresource/etcd.go (NewStorage).
func NewStorage(o generic.Options, v *Version, storageVersion string) (map[string]rest.Storage, error) {
	tc, err := NewTableConvertor(v)
	if err != nil {
		return nil, err
	}
	o.Info, o.TableConvertor = v.Info, tc
	if v.Info.Version != storageVersion {
		o.Storage = otherVersionStorage{o.Storage}
	}
	strategy := NewStrategy(v)
	store := generic.NewStore(o, strategy)
	store.ManagedFieldsType = TypedSchema(v.Structural)
	out := map[string]rest.Storage{"": store}
	if v.Status != nil {
		status := *store
		status.UpdateStrategy = StatusStrategy{strategy}
		out["status"] = generic.NewStatusRESTFromStore(&status)
	}
	if v.Scale != nil {
		out["scale"] = generic.NewScaleREST(store, scaler{scale: v.Scale})
	}
	return out, nil
}

// otherVersionStorage is the CRD's storage as a version other than the
// storage version sees it. Conversion None is free here: objects read are
// given this version's apiVersion by the handlers (rest.WithTypeMeta, on a
// copy) and objects written are stored with the storage version's by the
// store. Only the watch cache's shared encoding must not be used: it is
// keyed by the object, whose bytes would carry another version's
// apiVersion, so this version's watches encode their own.
type otherVersionStorage struct {
	store.Interface
}

func (s otherVersionStorage) Watch(ctx context.Context, prefix string, opts store.ListOptions) (api.Watcher, error) {
	w, err := s.Interface.Watch(ctx, prefix, opts)
	if err != nil {
		return nil, err
	}
	return ownEncodingWatcher{w}, nil
}

// ownEncodingWatcher hides every method of the watch but ResultChan and Stop.
type ownEncodingWatcher struct {
	api.Watcher
}
