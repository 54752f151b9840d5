package deployment

import (
	"context"
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// NewStorage is the REST storage of deployments and of their status and
// scale subresources. Kubernetes: pkg/registry/apps/deployment/storage/
// storage.go (NewStorage).
func NewStorage(o generic.Options) map[string]rest.Storage {
	store := generic.NewStore(o, NewStrategy(o.Info))
	return map[string]rest.Storage{
		"":       store,
		"status": generic.NewStatusREST(store),
		"scale":  &ScaleREST{store: store},
	}
}

// ScaleREST serves deployments/NAME/scale, the autoscaling/v1 Scale view
// of spec.replicas, status.replicas and the selector. Writing it updates
// the Deployment's spec.replicas through the Deployment's own store, so it
// is validated and admitted like any other Deployment update and bumps
// generation. It is the ReplicaSet's ScaleREST over another kind, as in
// Kubernetes. Kubernetes: ScaleREST.
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

// Get reads the Deployment and answers its Scale.
func (r *ScaleREST) Get(ctx context.Context, name string, opts *rest.GetOptions) (api.Object, error) {
	obj, err := r.store.Get(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return scaleFromDeployment(obj)
}

// Update writes the Scale objInfo makes of the current one into the
// Deployment and answers the new Scale. Kubernetes: ScaleREST.Update.
func (r *ScaleREST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, updateValidation rest.ValidateObjectUpdateFunc, opts *rest.UpdateOptions) (api.Object, error) {
	out, err := r.store.Update(ctx, name, &scaleUpdatedObjectInfo{info: r.store.Info, name: name, reqObjInfo: objInfo}, updateValidation, opts)
	if err != nil {
		return nil, err
	}
	return scaleFromDeployment(out)
}

// scaleUpdatedObjectInfo turns the stored Deployment into its Scale, lets
// the request's objInfo make the new Scale of it, checks that, and writes
// its replicas back into the Deployment. Kubernetes:
// scaleUpdatedObjectInfo.UpdatedObject.
type scaleUpdatedObjectInfo struct {
	info       *api.ResourceInfo
	name       string
	reqObjInfo rest.UpdatedObjectInfo
}

func (i *scaleUpdatedObjectInfo) UpdatedObject(ctx context.Context, old api.Object) (api.Object, error) {
	d, ok := old.(*api.Deployment)
	if !ok {
		return nil, fmt.Errorf("scale of %T is not supported", old)
	}
	oldScale, err := scaleFromDeployment(d)
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
	// The Scale's resourceVersion is the Deployment's: a stale one is 409.
	d.ResourceVersion = scale.ResourceVersion
	replicas := scale.Spec.Replicas
	d.Spec.Replicas = &replicas
	return d, nil
}

// scaleFromDeployment is the Scale view of a Deployment.
func scaleFromDeployment(obj api.Object) (*api.Scale, error) {
	d, ok := obj.(*api.Deployment)
	if !ok {
		return nil, fmt.Errorf("scale of %T is not supported", obj)
	}
	sel := ""
	if d.Spec.Selector != nil {
		s, err := api.LabelSelectorAsSelector(d.Spec.Selector)
		if err != nil {
			return nil, api.NewBadRequest(fmt.Sprintf("invalid selector: %v", err))
		}
		sel = s.String()
	}
	replicas := int32(1)
	if d.Spec.Replicas != nil {
		replicas = *d.Spec.Replicas
	}
	sc := api.NewScale()
	sc.ObjectMeta = api.ObjectMeta{
		Name: d.Name, Namespace: d.Namespace, UID: d.UID,
		ResourceVersion: d.ResourceVersion, CreationTimestamp: d.CreationTimestamp,
	}
	sc.Spec.Replicas = replicas
	sc.Status.Replicas = d.Status.Replicas
	sc.Status.Selector = sel
	return sc, nil
}
