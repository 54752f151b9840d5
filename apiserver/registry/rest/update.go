package rest

import (
	"context"

	"kubeloop/api"
)

// RESTUpdateStrategy is what a kind adds to an update: which parts of the
// stored object survive (the main resource keeps the stored status, /status
// keeps everything but status), when generation moves, and the rules for
// what may change. Kubernetes: registry/rest/update.go (RESTUpdateStrategy).
type RESTUpdateStrategy interface {
	// PrepareForUpdate makes obj, the object the client asked for, into the
	// object to store, given the stored one.
	PrepareForUpdate(ctx context.Context, obj, old api.Object)
	// ValidateUpdate checks obj against its rules and against old; a
	// refusal is a 422 Invalid StatusError.
	ValidateUpdate(ctx context.Context, obj, old api.Object) error
}

// BeforeUpdate is the kind-independent half of an update: metadata the
// server owns is carried over from the stored object, then the strategy
// prepares the rest. Kubernetes: registry/rest/update.go (BeforeUpdate).
// (Kubernetes refuses a changed uid or creationTimestamp as immutable; we
// keep the stored values, which kubectl replace's manifests need anyway.)
func BeforeUpdate(strategy RESTUpdateStrategy, ctx context.Context, obj, old api.Object) {
	m, om := obj.GetObjectMeta(), old.GetObjectMeta()
	m.UID = om.UID
	m.CreationTimestamp = om.CreationTimestamp
	m.DeletionTimestamp = om.DeletionTimestamp.DeepCopy()
	m.DeletionGracePeriodSeconds = copyInt64(om.DeletionGracePeriodSeconds)
	m.ResourceVersion = om.ResourceVersion
	m.Generation = om.Generation
	strategy.PrepareForUpdate(ctx, obj, old)
}

// UpdatedObjectInfo makes the new object of an update from the stored one.
// It is called inside the store's read-modify-write and again on every
// retry, so it must start from old each time. Kubernetes:
// registry/rest/update.go (UpdatedObjectInfo).
type UpdatedObjectInfo interface {
	UpdatedObject(ctx context.Context, old api.Object) (api.Object, error)
}

// DefaultUpdatedObjectInfo is the object of a PUT: the body, whatever is
// stored, followed by transformers (the handler's mutating admission).
// Kubernetes: registry/rest/update.go (DefaultUpdatedObjectInfo).
func DefaultUpdatedObjectInfo(obj api.Object, transformers ...TransformFunc) UpdatedObjectInfo {
	return &defaultUpdatedObjectInfo{obj: obj, transformers: transformers}
}

type defaultUpdatedObjectInfo struct {
	obj          api.Object
	transformers []TransformFunc
}

func (i *defaultUpdatedObjectInfo) UpdatedObject(ctx context.Context, old api.Object) (api.Object, error) {
	obj := i.obj.DeepCopyObject()
	return Transform(ctx, obj, old, i.transformers)
}

// Transform runs transformers over obj in order.
func Transform(ctx context.Context, obj, old api.Object, transformers []TransformFunc) (api.Object, error) {
	var err error
	for _, t := range transformers {
		if obj, err = t(ctx, obj, old); err != nil {
			return nil, err
		}
	}
	return obj, nil
}

func copyInt64(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
