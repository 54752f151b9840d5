package rbac

import (
	"context"

	"kubeloop/api"
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// NewStorage is the REST storage of one of the four RBAC resources: the
// generic store, with escalation prevention in front of create and
// update. Kubernetes: pkg/registry/rbac/<kind>/policybased/storage.go
// (NewStorage, Storage.Create, Storage.Update).
func NewStorage(o generic.Options, e *Escalation) map[string]rest.Storage {
	check := e.checkRole
	if o.Info.Kind == "RoleBinding" || o.Info.Kind == "ClusterRoleBinding" {
		check = e.checkBinding
	}
	return map[string]rest.Storage{"": &policyBased{
		Store: generic.NewStore(o, generic.DefaultStrategy{Info: o.Info}),
		check: check,
	}}
}

// policyBased is the generic store whose writes must pass check first.
// The check runs before validation, as in Kubernetes.
type policyBased struct {
	*generic.Store
	check func(ctx context.Context, gr api.GroupResource, obj api.Object) error
}

// Create refuses an object that grants more than its writer holds.
func (s *policyBased) Create(ctx context.Context, obj api.Object, v rest.ValidateObjectFunc, opts *rest.CreateOptions) (api.Object, error) {
	if err := s.check(ctx, s.Info.GroupResource(), obj); err != nil {
		return nil, err
	}
	return s.Store.Create(ctx, obj, v, opts)
}

// Update checks the object as it will be stored (after the patch or PUT
// body is applied to the current one).
func (s *policyBased) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, v rest.ValidateObjectUpdateFunc, opts *rest.UpdateOptions) (api.Object, error) {
	return s.Store.Update(ctx, name, checkedObjectInfo{objInfo, s}, v, opts)
}

type checkedObjectInfo struct {
	rest.UpdatedObjectInfo
	s *policyBased
}

func (c checkedObjectInfo) UpdatedObject(ctx context.Context, old api.Object) (api.Object, error) {
	obj, err := c.UpdatedObjectInfo.UpdatedObject(ctx, old)
	if err != nil {
		return nil, err
	}
	if err := c.s.check(ctx, c.s.Info.GroupResource(), obj); err != nil {
		return nil, err
	}
	return obj, nil
}
