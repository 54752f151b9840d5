package generic

import (
	"context"
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/fieldmanager"
	"kubeloop/apiserver/fieldmanager/fieldpath"
	"kubeloop/apiserver/registry/rest"
)

// Scaler is what a kind's scale subresource knows of the kind: how its
// objects look as an autoscaling/v1 Scale, where their replicas are, and
// how to write new replicas into them. ReplicaSets and Deployments keep
// them at .spec.replicas; a custom resource wherever its CRD's scale
// subresource says.
type Scaler interface {
	// ScaleOf is the Scale view of obj.
	ScaleOf(obj api.Object) (*api.Scale, error)
	// SetReplicas writes replicas into obj.
	SetReplicas(obj api.Object, replicas int32) error
	// ReplicasPath is where SetReplicas writes, for moving the ownership
	// of replicas between the object and its Scale.
	ReplicasPath() fieldpath.Path
}

// ScaleREST serves <resource>/NAME/scale: an autoscaling/v1 Scale that is
// a view of the object. A write of the Scale (update, patch, apply) is an
// update of the object's replicas through the object's own store, so it
// is admitted and validated like any other update of the object, and the
// ownership of replicas moves between the object's and the Scale's
// managedFields (fieldmanager.ScaleHandler). Kubernetes has one ScaleREST
// per kind, the same but for the Scale view: pkg/registry/apps/replicaset/
// storage/storage.go and pkg/registry/apps/deployment/storage/storage.go
// (ScaleREST, scaleUpdatedObjectInfo), apiextensions-apiserver
// pkg/registry/customresource/etcd.go.
type ScaleREST struct {
	store  *Store
	scaler Scaler
}

// NewScaleREST serves the Scale of s's objects.
func NewScaleREST(s *Store, scaler Scaler) *ScaleREST { return &ScaleREST{store: s, scaler: scaler} }

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

// Get reads the object and answers its Scale.
func (r *ScaleREST) Get(ctx context.Context, name string, opts *rest.GetOptions) (api.Object, error) {
	obj, err := r.store.Get(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return r.scaler.ScaleOf(obj)
}

// Update writes the Scale objInfo makes of the current one into the
// object and answers the new Scale. Kubernetes: ScaleREST.Update.
func (r *ScaleREST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, updateValidation rest.ValidateObjectUpdateFunc, opts *rest.UpdateOptions) (api.Object, error) {
	out, err := r.store.Update(ctx, name, &scaleUpdatedObjectInfo{r: r, name: name, req: objInfo}, updateValidation, opts)
	if err != nil {
		return nil, err
	}
	return r.scaler.ScaleOf(out)
}

// scaleUpdatedObjectInfo turns the stored object into its Scale (with the
// managedFields of whoever owns its replicas), lets the request's objInfo
// (the body, the patch or the apply, each with the Scale's field manager)
// make the new Scale of it, checks that, and writes its replicas and
// managedFields back into the object. Kubernetes:
// scaleUpdatedObjectInfo.UpdatedObject.
type scaleUpdatedObjectInfo struct {
	r    *ScaleREST
	name string
	req  rest.UpdatedObjectInfo
}

func (i *scaleUpdatedObjectInfo) UpdatedObject(ctx context.Context, old api.Object) (api.Object, error) {
	oldScale, err := i.r.scaler.ScaleOf(old)
	if err != nil {
		return nil, err
	}
	meta := old.GetObjectMeta()
	managed := fieldmanager.NewScaleHandler(meta.ManagedFields, i.r.store.Info.GroupVersion(), i.r.scaler.ReplicasPath())
	// Stored managedFields always decode; if they did not, the Scale
	// would carry none and the object keep its own (as Kubernetes'
	// UpdateNoErrors keeps them rather than fail the write).
	toScale, convErr := managed.ToSubresource()
	if convErr == nil {
		oldScale.ManagedFields = toScale
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
	// The Scale's resourceVersion is the object's: a stale one is 409.
	meta.ResourceVersion = scale.ResourceVersion
	if err := i.r.scaler.SetReplicas(old, scale.Spec.Replicas); err != nil {
		return nil, err
	}
	if convErr == nil {
		if entries, err := managed.ToParent(scale.ManagedFields); err == nil {
			meta.ManagedFields = entries
		}
	}
	return old, nil
}

// ScaleFor is the Scale view of an object with spec replicas (1 if unset,
// what defaulting makes of it), status replicas and a label selector:
// what a ReplicaSet or Deployment shows. The Scale carries the object's
// identity and resourceVersion, so a write of a stale Scale is a 409.
// Kubernetes: scaleFromReplicaSet, scaleFromDeployment.
func ScaleFor(meta *api.ObjectMeta, specReplicas *int32, statusReplicas int32, selector *api.LabelSelector) (*api.Scale, error) {
	sel := ""
	if selector != nil {
		s, err := api.LabelSelectorAsSelector(selector)
		if err != nil {
			return nil, api.NewBadRequest(fmt.Sprintf("invalid selector: %v", err))
		}
		sel = s.String()
	}
	replicas := int32(1)
	if specReplicas != nil {
		replicas = *specReplicas
	}
	sc := NewScaleOf(meta)
	sc.Spec.Replicas, sc.Status.Replicas, sc.Status.Selector = replicas, statusReplicas, sel
	return sc, nil
}

// NewScaleOf is an empty Scale with the identity of the object meta
// describes.
func NewScaleOf(meta *api.ObjectMeta) *api.Scale {
	sc := api.NewScale()
	sc.ObjectMeta = api.ObjectMeta{
		Name: meta.Name, Namespace: meta.Namespace, UID: meta.UID,
		ResourceVersion: meta.ResourceVersion, CreationTimestamp: meta.CreationTimestamp,
	}
	return sc
}
