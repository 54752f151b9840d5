package apiserver

import (
	"crypto/rand"
	"reflect"

	"github.com/google/uuid"

	"kubeloop/api"
)

// Server-owned metadata, as Kubernetes' rest.BeforeCreate / BeforeUpdate and
// rest.FillObjectMetaSystemFields set it
// (staging/src/k8s.io/apiserver/pkg/registry/rest/create.go, update.go).

// prepareForCreate resets everything a client may not choose on create.
func prepareForCreate(info *api.ResourceInfo, obj api.Object) {
	m := obj.GetObjectMeta()
	m.UID = uuid.NewString()
	m.CreationTimestamp = api.Now()
	m.ResourceVersion = ""
	m.DeletionTimestamp = nil
	m.DeletionGracePeriodSeconds = nil
	m.Generation = 0
	if info.HasSpec {
		m.Generation = 1
	}
	if info.HasStatus {
		resetStatus(obj)
	}
}

// prepareForUpdate carries the server-owned fields of old into obj.
func prepareForUpdate(info *api.ResourceInfo, obj, old api.Object) {
	m, om := obj.GetObjectMeta(), old.GetObjectMeta()
	m.UID = om.UID
	m.CreationTimestamp = om.CreationTimestamp
	m.DeletionTimestamp = om.DeletionTimestamp.DeepCopy()
	m.DeletionGracePeriodSeconds = copyInt64(om.DeletionGracePeriodSeconds)
	m.ResourceVersion = om.ResourceVersion
	m.Generation = om.Generation
}

// bumpGeneration adds one to generation when the spec changed; status and
// metadata changes never count.
func bumpGeneration(info *api.ResourceInfo, obj, old api.Object) {
	m, om := obj.GetObjectMeta(), old.GetObjectMeta()
	m.Generation = om.Generation
	if info.HasSpec && !specEqual(obj, old) {
		m.Generation = om.Generation + 1
	}
}

// generateName appends five random lowercase alphanumerics, as Kubernetes'
// names.SimpleNameGenerator does.
func generateName(base string) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	const maxBase = 63 - 5
	if len(base) > maxBase {
		base = base[:maxBase]
	}
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return base + string(b)
}

// The spec and status of a kind are its struct fields named Spec and
// Status; every kind kubeloop serves follows Kubernetes' convention, so
// reflection finds them without per-kind code.

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

func copyInt64(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
