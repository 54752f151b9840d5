package customresource

import (
	"fmt"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
	"kubeloop/apiserver/registry/generic"
)

// scaler is the Scale view of a custom resource, read from and written to
// the paths of the CRD's scale subresource; generic.ScaleREST serves it
// through the custom resource's own store, so the write is validated like
// any other. Kubernetes: pkg/registry/customresource/etcd.go
// (scaleFromCustomResource, scaleUpdatedObjectInfo).
type scaler struct {
	scale *api.CustomResourceSubresourceScale
}

// ScaleOf is the Scale view of u: a missing replicas path reads as 0.
func (s scaler) ScaleOf(obj api.Object) (*api.Scale, error) {
	u, ok := obj.(*api.Unstructured)
	if !ok {
		return nil, fmt.Errorf("scale of %T is not supported", obj)
	}
	spec, err := replicasAt(u, s.scale.SpecReplicasPath)
	if err != nil {
		return nil, err
	}
	status, err := replicasAt(u, s.scale.StatusReplicasPath)
	if err != nil {
		return nil, err
	}
	sc := generic.NewScaleOf(&u.ObjectMeta)
	sc.Spec.Replicas, sc.Status.Replicas = spec, status
	if s.scale.LabelSelectorPath != nil {
		if v, ok := api.NestedField(u.Content, pathFields(*s.scale.LabelSelectorPath)...); ok {
			sel, isString := v.(string)
			if !isString {
				return nil, api.NewInternalError(fmt.Errorf("the value at %s is not a string", *s.scale.LabelSelectorPath))
			}
			sc.Status.Selector = sel
		}
	}
	return sc, nil
}

// SetReplicas writes replicas at specReplicasPath.
func (s scaler) SetReplicas(obj api.Object, replicas int32) error {
	u, ok := obj.(*api.Unstructured)
	if !ok {
		return fmt.Errorf("scale of %T is not supported", obj)
	}
	if u.Content == nil {
		u.Content = map[string]any{}
	}
	api.SetNestedField(u.Content, int64(replicas), pathFields(s.scale.SpecReplicasPath)...)
	return nil
}

// ReplicasPath is specReplicasPath as a field path.
func (s scaler) ReplicasPath() fieldpath.Path {
	var p fieldpath.Path
	for _, name := range pathFields(s.scale.SpecReplicasPath) {
		p = append(p, fieldpath.Field(name))
	}
	return p
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
