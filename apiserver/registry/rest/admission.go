package rest

import (
	"context"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
)

// ValidateObjectFunc is validating admission of a create (the new object)
// or a delete (the stored one). The registry calls it at the last moment
// before it writes, so that admission judges the object exactly as it will
// be stored. Kubernetes: registry/rest/create.go (ValidateObjectFunc).
type ValidateObjectFunc func(ctx context.Context, obj api.Object) error

// ValidateObjectUpdateFunc is validating admission of an update.
type ValidateObjectUpdateFunc func(ctx context.Context, obj, old api.Object) error

// TransformFunc changes the object an update is about to write: the
// handler's mutating admission is one. Kubernetes: registry/rest/update.go
// (TransformFunc).
type TransformFunc func(ctx context.Context, obj, old api.Object) (api.Object, error)

// AdmissionToValidateObjectFunc runs the validating phase of v for the
// write static describes. The object (and for a delete the stored object)
// is the one the registry passes; its name and namespace, once it has
// them, are the ones admission sees, so a generated name is checked as
// generated. Kubernetes: registry/rest/create.go
// (AdmissionToValidateObjectFunc).
func AdmissionToValidateObjectFunc(v admission.ValidationInterface, static admission.Attributes) ValidateObjectFunc {
	return func(ctx context.Context, obj api.Object) error {
		a := static
		if a.Operation == admission.Delete {
			a.OldObject = obj
		} else {
			a.Object = obj
		}
		nameFrom(&a, obj)
		return v.Validate(ctx, &a)
	}
}

// AdmissionToValidateObjectUpdateFunc is AdmissionToValidateObjectFunc for
// updates. Kubernetes: registry/rest/update.go
// (AdmissionToValidateObjectUpdateFunc).
func AdmissionToValidateObjectUpdateFunc(v admission.ValidationInterface, static admission.Attributes) ValidateObjectUpdateFunc {
	return func(ctx context.Context, obj, old api.Object) error {
		a := static
		a.Object, a.OldObject = obj, old
		nameFrom(&a, obj)
		return v.Validate(ctx, &a)
	}
}

// AdmissionToTransformFunc runs the mutating phase of m as a step of an
// update.
func AdmissionToTransformFunc(m admission.MutationInterface, static admission.Attributes) TransformFunc {
	return func(ctx context.Context, obj, old api.Object) (api.Object, error) {
		a := static
		a.Object, a.OldObject = obj, old
		if err := m.Admit(ctx, &a); err != nil {
			return nil, err
		}
		return a.Object, nil
	}
}

func nameFrom(a *admission.Attributes, obj api.Object) {
	if obj == nil {
		return
	}
	m := obj.GetObjectMeta()
	if m.Name != "" {
		a.Name = m.Name
	}
	if m.Namespace != "" {
		a.Namespace = m.Namespace
	}
}
