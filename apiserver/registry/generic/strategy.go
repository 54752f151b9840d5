package generic

import (
	"context"
	"reflect"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
)

// DefaultStrategy is the strategy of a kind that has no rules of its own
// beyond Kubernetes' conventions, read from its ResourceInfo: a kind with a
// status ignores client status on create and keeps the stored status on
// update; a kind with a spec starts at generation 1 and counts every spec
// change. Kind strategies (registry/core/pod, ...) embed it and add what is
// theirs.
//
// The spec and status of a kind are its struct fields named Spec and
// Status; every kind kubeloop serves follows that convention, so
// reflection finds them without per-kind code. (Kubernetes writes this out
// in each kind's strategy.go: `pod.Status = api.PodStatus{}`.)
type DefaultStrategy struct {
	Info *api.ResourceInfo
}

// NamespaceScoped is the resource's scope.
func (s DefaultStrategy) NamespaceScoped() bool { return s.Info.Namespaced }

// PrepareForCreate clears status and starts generation at 1.
func (s DefaultStrategy) PrepareForCreate(_ context.Context, obj api.Object) {
	if s.Info.HasSpec {
		obj.GetObjectMeta().Generation = 1
	}
	if s.Info.HasStatus {
		resetStatus(obj)
	}
}

// Validate runs the kind's rules.
func (s DefaultStrategy) Validate(_ context.Context, obj api.Object) error {
	return admission.ValidateCreate(s.Info, "", obj)
}

// PrepareForUpdate keeps the stored status (a write to the main resource
// cannot change it) and bumps generation when the spec changed.
// Generation is compared after mutating admission, so that a manifest
// without defaulted fields does not count as a spec change.
func (s DefaultStrategy) PrepareForUpdate(_ context.Context, obj, old api.Object) {
	if s.Info.HasStatus {
		copyStatus(obj, old)
	}
	m, om := obj.GetObjectMeta(), old.GetObjectMeta()
	m.Generation = om.Generation
	if s.Info.HasSpec && !specEqual(obj, old) {
		m.Generation = om.Generation + 1
	}
}

// ValidateUpdate runs the kind's rules for an update.
func (s DefaultStrategy) ValidateUpdate(_ context.Context, obj, old api.Object) error {
	return admission.ValidateUpdate(s.Info, "", obj, old)
}

// StatusStrategy is the update strategy of the status subresource: the
// write may change status, labels and annotations, nothing else.
// Kubernetes: each kind's statusStrategy (pkg/registry/core/pod/strategy.go,
// podStatusStrategy.PrepareForUpdate), which keeps the old spec; Kubernetes
// keeps the old labels too, except for pods and nodes.
type StatusStrategy struct {
	Info *api.ResourceInfo
}

// PrepareForUpdate makes obj the stored object with obj's status, labels
// and annotations, and obj's managedFields (the handler's field manager
// computed them for this write from the stored ones).
func (s StatusStrategy) PrepareForUpdate(_ context.Context, obj, old api.Object) {
	m := obj.GetObjectMeta()
	labels, annotations, managed := m.Labels, m.Annotations, m.ManagedFields
	status := old.DeepCopyObject()
	copyStatus(status, obj)
	reflect.ValueOf(obj).Elem().Set(reflect.ValueOf(status).Elem())
	m = obj.GetObjectMeta()
	m.Labels, m.Annotations, m.ManagedFields = labels, annotations, managed
}

// ValidateUpdate checks only metadata: the spec is the stored one.
func (s StatusStrategy) ValidateUpdate(_ context.Context, obj, old api.Object) error {
	return admission.ValidateUpdate(s.Info, "status", obj, old)
}

// resetStatus zeroes obj's status (client-supplied status is ignored on create).
func resetStatus(obj api.Object) {
	if f := structField(obj, "Status"); f.IsValid() && f.CanSet() {
		f.Set(reflect.Zero(f.Type()))
	}
}

// copyStatus sets dst's status to a copy of src's.
func copyStatus(dst, src api.Object) {
	src = src.DeepCopyObject()
	d, s := structField(dst, "Status"), structField(src, "Status")
	if d.IsValid() && s.IsValid() && d.CanSet() {
		d.Set(s)
	}
}

// specEqual compares everything but metadata and status, semantically (nil
// and empty collections are equal, as on the wire), as Kubernetes' update
// strategies do with apiequality.Semantic.DeepEqual on the spec. For kinds
// with a Spec field that is the spec; for others (none today) it is every
// top-level field.
func specEqual(a, b api.Object) bool {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	if va.Type() != vb.Type() {
		return false
	}
	for i := range va.NumField() {
		switch va.Type().Field(i).Name {
		case "TypeMeta", "ObjectMeta", "Status":
			continue
		}
		if !api.SemanticEqual(va.Field(i).Addr().Interface(), vb.Field(i).Addr().Interface()) {
			return false
		}
	}
	return true
}

func structField(obj api.Object, name string) reflect.Value {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}
	}
	return v.Elem().FieldByName(name)
}
