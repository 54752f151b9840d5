package generic

import (
	"context"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/typed"
	"kubeloop/apiserver/registry/rest"
)

// StatusREST serves the status subresource: get reads the whole object,
// update and patch write it through StatusStrategy, so only status, labels
// and annotations change. Kubernetes: each kind's StatusREST
// (pkg/registry/core/pod/storage/storage.go), a Store copy whose
// UpdateStrategy is the kind's status strategy.
type StatusREST struct {
	store *Store
}

// NewStatusREST serves the status of s's objects.
func NewStatusREST(s *Store) *StatusREST {
	statusStore := *s
	statusStore.UpdateStrategy = StatusStrategy{Info: s.Info}
	return &StatusREST{store: &statusStore}
}

// NewStatusRESTFromStore serves the status through s as it is: a kind whose
// status writes have rules of their own sets s.UpdateStrategy first.
func NewStatusRESTFromStore(s *Store) *StatusREST { return &StatusREST{store: s} }

var _ rest.Patcher = (*StatusREST)(nil)

// New is an empty object of the parent's kind.
func (r *StatusREST) New() api.Object { return r.store.New() }

// ManagedFieldsSchema is the parent store's.
func (r *StatusREST) ManagedFieldsSchema() *typed.Type { return r.store.ManagedFieldsSchema() }

// Get reads the object.
func (r *StatusREST) Get(ctx context.Context, name string, opts *rest.GetOptions) (api.Object, error) {
	return r.store.Get(ctx, name, opts)
}

// Update writes the status.
func (r *StatusREST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, updateValidation rest.ValidateObjectUpdateFunc, opts *rest.UpdateOptions) (api.Object, error) {
	return r.store.Update(ctx, name, objInfo, updateValidation, opts)
}

// NewStorage is the REST storage of a resource with no package of its own
// (ConfigMaps, Events, Leases): DefaultStrategy over the generic Store,
// plus the status subresource if the kind has one. The keys are
// subresource names, "" for the resource itself.
func NewStorage(o Options) map[string]rest.Storage {
	store := NewStore(o, DefaultStrategy{Info: o.Info})
	out := map[string]rest.Storage{"": store}
	if o.Info.HasStatus {
		out["status"] = NewStatusREST(store)
	}
	return out
}
