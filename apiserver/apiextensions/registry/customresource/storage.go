package customresource

import (
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// NewStorage is the REST storage of one served version: the resource, and
// its status and scale subresources when the version has them. o.Storage
// is the CRD's one storage (etcd behind the watch cache), shared by every
// version; o.Info is this version's kind. Kubernetes:
// pkg/registry/customresource/etcd.go (NewStorage).
func NewStorage(o generic.Options, v *Version) (map[string]rest.Storage, error) {
	tc, err := NewTableConvertor(v)
	if err != nil {
		return nil, err
	}
	o.Info, o.TableConvertor = v.Info, tc
	strategy := NewStrategy(v)
	store := generic.NewStore(o, strategy)
	out := map[string]rest.Storage{"": store}
	if v.Status != nil {
		status := *store
		status.UpdateStrategy = StatusStrategy{strategy}
		out["status"] = generic.NewStatusRESTFromStore(&status)
	}
	if v.Scale != nil {
		out["scale"] = &ScaleREST{store: store, scale: v.Scale}
	}
	return out, nil
}
