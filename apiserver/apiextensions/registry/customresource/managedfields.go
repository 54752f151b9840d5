package customresource

import (
	"encoding/json"
	"fmt"
	"reflect"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/schema"
	"kubeloop/apiserver/fieldmanager/typed"
)

// TypedSchema is the schema server-side apply and managedFields read a
// version's objects by: the structural schema, with Kubernetes' markers
// for how a value merges — x-kubernetes-list-type (atomic, the default
// for a CRD, set or map) with x-kubernetes-list-map-keys, and
// x-kubernetes-map-type (atomic or granular) — and metadata as every
// kind's ObjectMeta. Kubernetes:
// staging/src/k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder
// (the CRD's OpenAPI) and k8s.io/kube-openapi/pkg/schemaconv (OpenAPI to
// SMD's schema).
//
// What we simplify: an x-kubernetes-preserve-unknown-fields object keeps
// its undeclared fields as atomic values (SMD deduces their shape, so its
// nested maps are granular); a node of no type is atomic.
func TypedSchema(s *schema.Structural) *typed.Type {
	root := &typed.Type{Kind: typed.Struct, Fields: map[string]*typed.Type{}, Elem: untyped}
	if s != nil {
		if t := structuralType(s); t.Kind == typed.Struct {
			root = t
		}
	}
	root.Fields["apiVersion"] = &typed.Type{Kind: typed.Scalar, ScalarType: "string"}
	root.Fields["kind"] = &typed.Type{Kind: typed.Scalar, ScalarType: "string"}
	root.Fields["metadata"] = typed.TypeFor(reflect.TypeFor[api.ObjectMeta]())
	return root
}

// untyped is a value of any shape, owned as a whole.
var untyped = &typed.Type{Kind: typed.Untyped}

func structuralType(s *schema.Structural) *typed.Type {
	switch {
	case s.XIntOrString:
		return &typed.Type{Kind: typed.Scalar, ScalarType: "untyped"}
	case s.Type == "object":
		if len(s.Properties) == 0 && s.AdditionalProperties != nil &&
			(s.AdditionalProperties.Structural != nil || s.AdditionalProperties.Bool) {
			t := &typed.Type{Kind: typed.Map, Elem: untyped}
			if s.AdditionalProperties.Structural != nil {
				t.Elem = structuralType(s.AdditionalProperties.Structural)
			}
			t.Atomic = isAtomicMap(s)
			return t
		}
		t := &typed.Type{Kind: typed.Struct, Fields: map[string]*typed.Type{}, Atomic: isAtomicMap(s)}
		for name, p := range s.Properties {
			t.Fields[name] = structuralType(&p)
		}
		if s.XPreserveUnknownFields || s.XEmbeddedResource {
			t.Elem = untyped
		}
		return t
	case s.Type == "array":
		t := &typed.Type{Kind: typed.List, ListType: typed.ListAtomic, Elem: untyped}
		if s.Items != nil {
			t.Elem = structuralType(s.Items)
		}
		if s.XListType != nil {
			t.ListType = *s.XListType
		}
		if t.ListType == typed.ListMap {
			t.Keys = s.XListMapKeys
			t.KeyDefaults = keyDefaults(s.Items, s.XListMapKeys)
		}
		return t
	case s.Type == "string":
		return &typed.Type{Kind: typed.Scalar, ScalarType: "string"}
	case s.Type == "integer", s.Type == "number":
		return &typed.Type{Kind: typed.Scalar, ScalarType: "numeric"}
	case s.Type == "boolean":
		return &typed.Type{Kind: typed.Scalar, ScalarType: "boolean"}
	}
	return untyped
}

func isAtomicMap(s *schema.Structural) bool {
	return s.XMapType != nil && *s.XMapType == "atomic"
}

// keyDefaults are the defaults of a map list's key fields, written as the
// walks read values (numbers as json.Number).
func keyDefaults(items *schema.Structural, keys []string) map[string]any {
	if items == nil {
		return nil
	}
	out := map[string]any{}
	for _, k := range keys {
		p, ok := items.Properties[k]
		if !ok || p.Default == nil {
			continue
		}
		switch d := p.Default.(type) {
		case int64, float64, int, json.Number:
			out[k] = json.Number(fmt.Sprint(d))
		default:
			out[k] = d
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
