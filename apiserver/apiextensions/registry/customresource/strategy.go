package customresource

import (
	"context"
	"errors"
	"reflect"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/apiextensions/cel"
	"kubeloop/apiserver/apiextensions/field"
)

// Strategy is the strategy of one served version of a custom resource.
// Kubernetes: pkg/registry/customresource/strategy.go (customResourceStrategy).
type Strategy struct {
	v *Version
}

// NewStrategy is the strategy of v.
func NewStrategy(v *Version) Strategy { return Strategy{v: v} }

// NamespaceScoped is the CRD's scope.
func (s Strategy) NamespaceScoped() bool { return s.v.Info.Namespaced }

// PrepareForCreate starts generation at 1 and, with the status
// subresource, drops the client's status.
func (s Strategy) PrepareForCreate(_ context.Context, obj api.Object) {
	u := obj.(*api.Unstructured)
	u.Generation = 1
	if s.v.Status != nil {
		delete(u.Content, "status")
	}
}

// PrepareForUpdate keeps the stored status (with the status subresource)
// and bumps generation when anything but metadata and status changed —
// for a CRD without the status subresource, a status change counts too,
// as in Kubernetes.
func (s Strategy) PrepareForUpdate(_ context.Context, obj, old api.Object) {
	u, o := obj.(*api.Unstructured), old.(*api.Unstructured)
	if u.Content == nil {
		u.Content = map[string]any{}
	}
	if s.v.Status != nil {
		if st, ok := o.Content["status"]; ok {
			u.Content["status"] = api.DeepCopyJSON(st)
		} else {
			delete(u.Content, "status")
		}
	}
	u.Generation = o.Generation
	if !reflect.DeepEqual(nonEmpty(u.Content), nonEmpty(o.Content)) {
		u.Generation = o.Generation + 1
	}
}

// nonEmpty treats a nil and an empty content alike.
func nonEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// Validate checks a new object: ObjectMeta, the schema, the CEL rules.
func (s Strategy) Validate(ctx context.Context, obj api.Object) error {
	return s.validate(ctx, obj, nil, admission.ValidateCreate(s.v.Info, "", obj), true)
}

// ValidateUpdate checks obj replacing old; the CEL rules see oldSelf.
func (s Strategy) ValidateUpdate(ctx context.Context, obj, old api.Object) error {
	return s.validate(ctx, obj, old, admission.ValidateUpdate(s.v.Info, "", obj, old), true)
}

// validate gathers every problem into one 422 on the kind: the metadata
// causes of metaErr first, then the schema's, the scale paths' (the spec's
// replicas too when scaleSpec), then the rules'.
// Kubernetes: customResourceValidator.Validate and ValidateUpdate, then
// the strategy's CEL validation.
func (s Strategy) validate(ctx context.Context, obj, old api.Object, metaErr error, scaleSpec bool) error {
	var causes []api.StatusCause
	if metaErr != nil {
		var se *api.StatusError
		if !errors.As(metaErr, &se) || se.ErrStatus.Details == nil {
			return metaErr
		}
		causes = append(causes, se.ErrStatus.Details.Causes...)
	}
	u := obj.(*api.Unstructured)
	causes = append(causes, s.schemaErrors(ctx, u, old, scaleSpec).Causes()...)
	if len(causes) == 0 {
		return nil
	}
	return api.NewInvalid(s.v.Info.Group, s.v.Info.Kind, u.Name, causes)
}

// schemaErrors are the schema's, the scale paths' and the CEL rules'
// verdicts on u.
func (s Strategy) schemaErrors(ctx context.Context, u *api.Unstructured, old api.Object, scaleSpec bool) field.ErrorList {
	var errs field.ErrorList
	full := fullObject(u)
	if s.v.Validator != nil {
		errs = s.v.Validator.ValidateCustomResource(full)
	}
	errs = append(errs, validateScale(s.v.Scale, u.Content, scaleSpec)...)
	if s.v.Rules != nil {
		var oldFull any
		if o, ok := old.(*api.Unstructured); ok {
			oldFull = fullObject(o)
		}
		ruleErrs, _ := s.v.Rules.Validate(ctx, "", full, oldFull, cel.RuntimeCELCostBudget)
		errs = append(errs, ruleErrs...)
	}
	return errs
}

// fullObject is u as the schema sees it: its content with apiVersion, kind
// and the part of metadata a CRD's schema may speak of (name and
// generateName). The content maps are shared, not copied: validation only
// reads.
func fullObject(u *api.Unstructured) map[string]any {
	m := make(map[string]any, len(u.Content)+3)
	for k, v := range u.Content {
		m[k] = v
	}
	m["apiVersion"], m["kind"] = u.APIVersion, u.Kind
	meta := map[string]any{}
	if u.Name != "" {
		meta["name"] = u.Name
	}
	if u.GenerateName != "" {
		meta["generateName"] = u.GenerateName
	}
	m["metadata"] = meta
	return m
}

// StatusStrategy is the strategy of the status subresource: the stored
// object with the request's status, nothing else (not even labels, as
// Kubernetes' CR status strategy). Kubernetes:
// pkg/registry/customresource/status_strategy.go.
type StatusStrategy struct {
	Strategy
}

// PrepareForUpdate makes obj the stored object with obj's status.
func (s StatusStrategy) PrepareForUpdate(_ context.Context, obj, old api.Object) {
	u, o := obj.(*api.Unstructured), old.(*api.Unstructured)
	status, ok := u.Content["status"]
	rv, managed := u.ResourceVersion, u.ManagedFields
	*u = *o.DeepCopy()
	// managedFields are the handler's field manager's for this write, as
	// in Kubernetes' status strategy.
	u.ResourceVersion, u.ManagedFields = rv, managed
	if u.Content == nil {
		u.Content = map[string]any{}
	}
	if ok {
		u.Content["status"] = status
	} else {
		delete(u.Content, "status")
	}
}

// ValidateUpdate checks the metadata rules of a status write and the whole
// object against the schema and rules.
func (s StatusStrategy) ValidateUpdate(ctx context.Context, obj, old api.Object) error {
	return s.validate(ctx, obj, old, admission.ValidateUpdate(s.v.Info, "status", obj, old), false)
}
