package api

import (
	"fmt"
	"reflect"
	"sync"
)

// ResourceInfo is everything generic code needs to know about one kind: how
// it is named on the wire and in URLs, where it lives in etcd, and how to make
// an empty one. Store keys, apiserver routes, discovery and clients are all
// driven from this table. It is not an API object and is never copied.
//
// +kubeloop:deepcopy=false
type ResourceInfo struct {
	Group      string // "" for the legacy core group
	Version    string
	Kind       string
	Resource   string // the plural, lower case: "pods"
	Singular   string
	ShortNames []string
	Categories []string
	Namespaced bool
	// HasSpec: changes to anything but metadata and status bump generation.
	HasSpec bool
	// HasStatus: the kind has a status subresource; the main resource
	// ignores status changes, and /status changes only status.
	HasStatus bool
	// Subresources other than status: "scale", "binding", "token".
	Subresources []string
	// Verbs, when set, are all the resource serves: ["create"] for the
	// reviews, which are answered and never stored (no NewList, no etcd,
	// no watch cache). Nil: a stored kind's every verb.
	Verbs   []string
	New     func() Object
	NewList func() ListObject
	// Fields returns the values field selectors can match, beyond
	// metadata.name and metadata.namespace which every kind has.
	Fields func(Object) map[string]string
	// FieldLabelConversion checks a field a field selector names, and may
	// rename it, as the kind's field label conversion function does in
	// Kubernetes. It decides which selectors are a 400, so it is not
	// derived from Fields: Kubernetes accepts fields no object carries
	// (a pod's status.podIPs) and refuses some it could match. nil is
	// Kubernetes' default (see ConvertFieldLabel).
	FieldLabelConversion func(label, value string) (string, string, error)
	// Decoded, if set, is applied by the store to every object it decodes
	// from etcd. Custom resources use it for their schema's defaults and
	// pruning, as Kubernetes' storage codec does for them; built-in kinds
	// have none.
	Decoded func(Object)
}

// ConvertFieldLabel checks and rewrites one field of a field selector with
// the kind's FieldLabelConversion; a kind without one knows metadata.name
// and metadata.namespace only, with Kubernetes' message for any other.
// Kubernetes: apimachinery/pkg/runtime/scheme.go, Scheme.ConvertFieldLabel,
// and runtime/conversion.go, DefaultMetaV1FieldSelectorConversion.
func (r *ResourceInfo) ConvertFieldLabel(label, value string) (string, string, error) {
	if r.FieldLabelConversion != nil {
		return r.FieldLabelConversion(label, value)
	}
	switch label {
	case "metadata.name", "metadata.namespace":
		return label, value, nil
	}
	return "", "", fmt.Errorf("%q is not a known field selector: only %q, %q", label, "metadata.name", "metadata.namespace")
}

// GroupVersion is the apiVersion string: "v1" or "apps/v1".
func (r *ResourceInfo) GroupVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}

// GroupResource names the resource in messages.
func (r *ResourceInfo) GroupResource() GroupResource {
	return GroupResource{Group: r.Group, Resource: r.Resource}
}

// ListKind is the kind of the list: "PodList".
func (r *ResourceInfo) ListKind() string { return r.Kind + "List" }

// KeyPrefix is the etcd prefix of every object of this resource:
// "/registry/core/pods/". Namespaced objects live below "<namespace>/".
func (r *ResourceInfo) KeyPrefix() string {
	g := r.Group
	if g == "" {
		g = "core"
	}
	return "/registry/" + g + "/" + r.Resource + "/"
}

// Key is the etcd key of one object.
func (r *ResourceInfo) Key(namespace, name string) string {
	if r.Namespaced {
		return r.KeyPrefix() + namespace + "/" + name
	}
	return r.KeyPrefix() + name
}

// ObjectFields returns every field a field selector may name for obj.
func (r *ResourceInfo) ObjectFields(obj Object) map[string]string {
	m := obj.GetObjectMeta()
	f := map[string]string{"metadata.name": m.Name}
	if r.Namespaced {
		f["metadata.namespace"] = m.Namespace
	}
	if r.Fields != nil {
		for k, v := range r.Fields(obj) {
			f[k] = v
		}
	}
	return f
}

// Registry indexes ResourceInfos by kind, by resource and by Go type.
// It is read-only once built.
//
// +kubeloop:deepcopy=false
type Registry struct {
	all        []*ResourceInfo
	byKind     map[string]*ResourceInfo // "apps/Kind"
	byResource map[GroupResource]*ResourceInfo
	byType     map[reflect.Type]*ResourceInfo
}

// NewRegistry builds a registry from a table of kinds.
func NewRegistry(infos ...ResourceInfo) *Registry {
	r := &Registry{
		byKind:     map[string]*ResourceInfo{},
		byResource: map[GroupResource]*ResourceInfo{},
		byType:     map[reflect.Type]*ResourceInfo{},
	}
	for i := range infos {
		info := &infos[i]
		r.all = append(r.all, info)
		r.byKind[info.Group+"/"+info.Kind] = info
		r.byResource[info.GroupResource()] = info
		r.byType[reflect.TypeOf(info.New())] = info
	}
	return r
}

// With is a registry of r's kinds (the same ResourceInfos) followed by
// more: the apiserver serves the reviews beside the stored kinds.
func (r *Registry) With(infos ...ResourceInfo) *Registry {
	out := NewRegistry(infos...)
	all := append(append([]*ResourceInfo(nil), r.all...), out.all...)
	for _, info := range r.all {
		out.byKind[info.Group+"/"+info.Kind] = info
		out.byResource[info.GroupResource()] = info
		out.byType[reflect.TypeOf(info.New())] = info
	}
	out.all = all
	return out
}

// All returns every kind, in table order.
func (r *Registry) All() []*ResourceInfo { return r.all }

// ForKind finds a kind by group and kind name.
func (r *Registry) ForKind(group, kind string) (*ResourceInfo, bool) {
	i, ok := r.byKind[group+"/"+kind]
	return i, ok
}

// ForResource finds a kind by group and plural resource name.
func (r *Registry) ForResource(group, resource string) (*ResourceInfo, bool) {
	i, ok := r.byResource[GroupResource{Group: group, Resource: resource}]
	return i, ok
}

// ForObject finds the kind of a Go object (*Pod → pods).
func (r *Registry) ForObject(obj Object) (*ResourceInfo, bool) {
	i, ok := r.byType[reflect.TypeOf(obj)]
	return i, ok
}

// ForType finds the kind of the Go type T (T is a pointer type such as *Pod).
func ForType[T Object](r *Registry) (*ResourceInfo, bool) {
	i, ok := r.byType[reflect.TypeFor[T]()]
	return i, ok
}

// SetTypeMeta fills apiVersion and kind from the registry. Objects decoded
// from etcd or built in Go code go through it before they are sent. It also
// knows the unregistered wire bodies Binding, Scale and Status.
func (r *Registry) SetTypeMeta(obj Object) error {
	tm := obj.GetTypeMeta()
	if info, ok := r.ForObject(obj); ok {
		tm.APIVersion, tm.Kind = info.GroupVersion(), info.Kind
		return nil
	}
	// Subresource bodies (Binding, Scale) and Status are not resources but
	// still go on the wire with a type.
	if k, ok := bodyKind(obj); ok {
		tm.APIVersion, tm.Kind = k.GroupVersion(), k.Kind
		return nil
	}
	return fmt.Errorf("type %T is not registered", obj)
}

// Builtin returns the registry of every kind kubeloop serves. It is built
// once and never changed.
var Builtin = sync.OnceValue(func() *Registry { return NewRegistry(builtinKinds()...) })
