package customresource

import (
	"context"
	"fmt"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// ScaleREST serves <plural>/NAME/scale: an autoscaling/v1 Scale read from
// and written to the paths of the CRD's scale subresource, through the
// custom resource's own store (so the write is validated like any other).
// Kubernetes: pkg/registry/customresource/etcd.go (ScaleREST,
// scaleFromCustomResource, scaleUpdatedObjectInfo).
type ScaleREST struct {
	store *generic.Store
	scale *api.CustomResourceSubresourceScale
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

// Get reads the custom resource and answers its Scale.
func (r *ScaleREST) Get(ctx context.Context, name string, opts *rest.GetOptions) (api.Object, error) {
	obj, err := r.store.Get(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return r.scaleOf(obj.(*api.Unstructured))
}

// Update writes the new Scale's replicas into specReplicasPath.
func (r *ScaleREST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, updateValidation rest.ValidateObjectUpdateFunc, opts *rest.UpdateOptions) (api.Object, error) {
	out, err := r.store.Update(ctx, name, &scaleUpdate{r: r, name: name, req: objInfo}, updateValidation, opts)
	if err != nil {
		return nil, err
	}
	return r.scaleOf(out.(*api.Unstructured))
}

type scaleUpdate struct {
	r    *ScaleREST
	name string
	req  rest.UpdatedObjectInfo
}

func (i *scaleUpdate) UpdatedObject(ctx context.Context, old api.Object) (api.Object, error) {
	u := old.(*api.Unstructured)
	oldScale, err := i.r.scaleOf(u)
	if err != nil {
		return nil, err
	}
	obj, err := i.req.UpdatedObject(ctx, oldScale)
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
	if err := admission.ValidateUpdate(i.r.store.Info, "scale", scale, oldScale); err != nil {
		return nil, err
	}
	u.ResourceVersion = scale.ResourceVersion
	if u.Content == nil {
		u.Content = map[string]any{}
	}
	api.SetNestedField(u.Content, int64(scale.Spec.Replicas), pathFields(i.r.scale.SpecReplicasPath)...)
	return u, nil
}

// scaleOf is the Scale view of u: a missing replicas path reads as 0.
func (r *ScaleREST) scaleOf(u *api.Unstructured) (*api.Scale, error) {
	sc := api.NewScale()
	sc.ObjectMeta = api.ObjectMeta{
		Name: u.Name, Namespace: u.Namespace, UID: u.UID,
		ResourceVersion: u.ResourceVersion, CreationTimestamp: u.CreationTimestamp,
	}
	spec, err := replicasAt(u, r.scale.SpecReplicasPath)
	if err != nil {
		return nil, err
	}
	status, err := replicasAt(u, r.scale.StatusReplicasPath)
	if err != nil {
		return nil, err
	}
	sc.Spec.Replicas, sc.Status.Replicas = spec, status
	if r.scale.LabelSelectorPath != nil {
		if v, ok := api.NestedField(u.Content, pathFields(*r.scale.LabelSelectorPath)...); ok {
			s, isString := v.(string)
			if !isString {
				return nil, api.NewInternalError(fmt.Errorf("the value at %s is not a string", *r.scale.LabelSelectorPath))
			}
			sc.Status.Selector = s
		}
	}
	return sc, nil
}

func replicasAt(u *api.Unstructured, path string) (int32, error) {
	v, ok := api.NestedField(u.Content, pathFields(path)...)
	if !ok || v == nil {
		return 0, nil
	}
	n, isInt := v.(int64)
	if !isInt {
		return 0, api.NewInternalError(fmt.Errorf("the value at %s is not an integer", path))
	}
	return int32(n), nil
}

// pathFields splits a scale path (".spec.replicas", checked by CRD
// validation to be field names only) into its names.
func pathFields(path string) []string {
	return strings.Split(strings.TrimPrefix(path, "."), ".")
}
