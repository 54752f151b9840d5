package customresourcedefinition

import (
	"context"
	"slices"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/validation"
	"kubeloop/apiserver/registry/generic"
)

// CleanupFinalizer is the finalizer every CRD carries from its creation
// until its custom resources are all gone.
const CleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io"

// Strategy is the CRD strategy: the default conventions (status reset on
// create and kept on update, generation counting spec changes) plus the
// CRD's defaults, its stored versions and its validation.
type Strategy struct {
	generic.DefaultStrategy
}

// NewStrategy is the strategy of the CRDs info describes.
func NewStrategy(info *api.ResourceInfo) Strategy {
	return Strategy{generic.DefaultStrategy{Info: info}}
}

// PrepareForCreate defaults the CRD and starts its status empty but for
// the storage version.
func (s Strategy) PrepareForCreate(ctx context.Context, obj api.Object) {
	s.DefaultStrategy.PrepareForCreate(ctx, obj)
	crd := obj.(*api.CustomResourceDefinition)
	crd.Status = api.CustomResourceDefinitionStatus{}
	validation.SetDefaults(crd)
}

// PrepareForUpdate keeps the stored status, bumps generation on a spec
// change and adds the (new) storage version to status.storedVersions.
func (s Strategy) PrepareForUpdate(ctx context.Context, obj, old api.Object) {
	crd := obj.(*api.CustomResourceDefinition)
	validation.SetDefaults(crd)
	s.DefaultStrategy.PrepareForUpdate(ctx, obj, old)
	addStoredVersion(crd)
}

// addStoredVersion records the storage version as one objects are stored
// in, as Kubernetes' strategy does on every create and update.
func addStoredVersion(crd *api.CustomResourceDefinition) {
	for _, v := range crd.Spec.Versions {
		if v.Storage && !slices.Contains(crd.Status.StoredVersions, v.Name) {
			crd.Status.StoredVersions = append(crd.Status.StoredVersions, v.Name)
		}
	}
}

// Validate is ValidateCustomResourceDefinition as a 422.
func (s Strategy) Validate(_ context.Context, obj api.Object) error {
	crd := obj.(*api.CustomResourceDefinition)
	errs := append(validation.ValidateCustomResourceDefinition(crd), refuseWebhookConversion(crd)...)
	return asError(errs.ToStatusError("apiextensions.k8s.io", "CustomResourceDefinition", crd.Name))
}

// ValidateUpdate is ValidateCustomResourceDefinitionUpdate as a 422.
func (s Strategy) ValidateUpdate(_ context.Context, obj, old api.Object) error {
	crd, oldCRD := obj.(*api.CustomResourceDefinition), old.(*api.CustomResourceDefinition)
	errs := append(validation.ValidateCustomResourceDefinitionUpdate(crd, oldCRD), refuseWebhookConversion(crd)...)
	return asError(errs.ToStatusError("apiextensions.k8s.io", "CustomResourceDefinition", crd.Name))
}

// refuseWebhookConversion is kubeloop's own rule: it never calls
// conversion webhooks, so a CRD asking for one is refused whole rather than
// served with versions that cannot be converted. (Kubernetes accepts it and
// calls the webhook on every read and write across versions.)
func refuseWebhookConversion(crd *api.CustomResourceDefinition) field.ErrorList {
	if c := crd.Spec.Conversion; c != nil && c.Strategy == api.WebhookConverter {
		return field.ErrorList{field.Invalid(field.NewPath("spec", "conversion", "strategy"), string(c.Strategy),
			"conversion webhooks are not supported by kubeloop: use strategy None (apiVersion is rewritten, fields are kept)")}
	}
	return nil
}

// StatusStrategy is the strategy of customresourcedefinitions/status:
// only status changes, and only the accepted names are validated.
type StatusStrategy struct {
	generic.StatusStrategy
}

// ValidateUpdate is ValidateCustomResourceDefinitionStatusUpdate as a 422.
func (s StatusStrategy) ValidateUpdate(_ context.Context, obj, old api.Object) error {
	crd, oldCRD := obj.(*api.CustomResourceDefinition), old.(*api.CustomResourceDefinition)
	return asError(validation.ValidateCustomResourceDefinitionStatusUpdate(crd, oldCRD).ToStatusError("apiextensions.k8s.io", "CustomResourceDefinition", crd.Name))
}

// asError keeps a nil *StatusError from becoming a non-nil error.
func asError(se *api.StatusError) error {
	if se == nil {
		return nil
	}
	return se
}
