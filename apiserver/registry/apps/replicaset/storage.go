package replicaset

import (
	"context"
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// NewStorage is the REST storage of replicasets and of their status and
// scale subresources. Kubernetes: pkg/registry/apps/replicaset/storage/
// storage.go (NewStorage).
func NewStorage(o generic.Options) map[string]rest.Storage {
	store := generic.NewStore(o, NewStrategy(o.Info))
	return map[string]rest.Storage{
		"":       store,
		"status": generic.NewStatusREST(store),
		"scale":  &ScaleREST{store: store},
	}
}

// ScaleREST serves replicasets/NAME/scale: an autoscaling/v1 Scale that is
// a view of spec.replicas, status.replicas and the selector. A write of the
// Scale is an update of the ReplicaSet's spec.replicas through the
// ReplicaSet's own store, so it is validated and admitted like any other
// ReplicaSet update. Kubernetes: ScaleREST.
type ScaleREST struct {
	store *generic.Store
}

var (
	_ rest.Patcher                  = (*ScaleREST)(nil)
	_ rest.GroupVersionKindProvider = (*ScaleREST)(nil)
)

// New is an empty Scale.
func (r *ScaleREST) New() api.Object { return api.NewScale() }

// GroupVersionKind is autoscaling/v1 Scale.
func (r *ScaleREST) GroupVersionKind() api.KindInfo {
	k, _ := api.SubresourceKind("scale")
	return k
}

// Get reads the ReplicaSet and answers its Scale.
func (r *ScaleREST) Get(ctx context.Context, name string, opts *rest.GetOptions) (api.Object, error) {
	obj, err := r.store.Get(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return scaleFromReplicaSet(obj)
}

// Update writes the Scale objInfo makes of the current one into the
// ReplicaSet and answers the new Scale. Kubernetes: ScaleREST.Update.
func (r *ScaleREST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, updateValidation rest.ValidateObjectUpdateFunc, opts *rest.UpdateOptions) (api.Object, error) {
	out, err := r.store.Update(ctx, name, &scaleUpdatedObjectInfo{info: r.store.Info, name: name, reqObjInfo: objInfo}, updateValidation, opts)
	if err != nil {
		return nil, err
	}
	return scaleFromReplicaSet(out)
}

// scaleUpdatedObjectInfo turns the stored ReplicaSet into its Scale, lets
// the request's objInfo (the body, or the patch) make the new Scale of it,
// checks that, and writes its replicas back into the ReplicaSet.
// Kubernetes: scaleUpdatedObjectInfo.UpdatedObject.
type scaleUpdatedObjectInfo struct {
	info       *api.ResourceInfo
	name       string
	reqObjInfo rest.UpdatedObjectInfo
}

func (i *scaleUpdatedObjectInfo) UpdatedObject(ctx context.Context, old api.Object) (api.Object, error) {
	rs, ok := old.(*api.ReplicaSet)
	if !ok {
		return nil, fmt.Errorf("scale of %T is not supported", old)
	}
	oldScale, err := scaleFromReplicaSet(rs)
	if err != nil {
		return nil, err
	}
	obj, err := i.reqObjInfo.UpdatedObject(ctx, oldScale)
	if err != nil {
		return nil, err
	}
	scale, ok := obj.(*api.Scale)
	if !ok {
		return nil, api.NewBadRequest(fmt.Sprintf("expected input object type to be Scale, but %T", obj))
	}
	if scale.Name != "" && scale.Name != i.name {
		return nil, api.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", scale.Name, i.name))
	}
	if err := admission.ValidateUpdate(i.info, "scale", scale, oldScale); err != nil {
		return nil, err
	}
	// The Scale's resourceVersion is the ReplicaSet's: a stale one is 409.
	rs.ResourceVersion = scale.ResourceVersion
	replicas := scale.Spec.Replicas
	rs.Spec.Replicas = &replicas
	return rs, nil
}

// scaleFromReplicaSet is the Scale view of a ReplicaSet.
func scaleFromReplicaSet(obj api.Object) (*api.Scale, error) {
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return nil, fmt.Errorf("scale of %T is not supported", obj)
	}
	sel := ""
	if rs.Spec.Selector != nil {
		s, err := api.LabelSelectorAsSelector(rs.Spec.Selector)
		if err != nil {
			return nil, api.NewBadRequest(fmt.Sprintf("invalid selector: %v", err))
		}
		sel = s.String()
	}
	replicas := int32(1)
	if rs.Spec.Replicas != nil {
		replicas = *rs.Spec.Replicas
	}
	sc := api.NewScale()
	sc.ObjectMeta = api.ObjectMeta{
		Name: rs.Name, Namespace: rs.Namespace, UID: rs.UID,
		ResourceVersion: rs.ResourceVersion, CreationTimestamp: rs.CreationTimestamp,
	}
	sc.Spec.Replicas = replicas
	sc.Status.Replicas = rs.Status.Replicas
	sc.Status.Selector = sel
	return sc, nil
}
