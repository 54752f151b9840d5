package strategicpatch

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"kubeloop/api"
)

// Schema is what the patcher needs to know about one JSON object: for each
// field that is a list or an object, how to merge it. Fields it does not
// list are merged the JSON merge patch way (objects recursively, lists and
// scalars replaced).
type Schema struct {
	Fields map[string]*Field
}

// Field is the patch metadata of one field, as Kubernetes' patchStrategy
// and patchMergeKey struct tags say.
type Field struct {
	// Merge: the list is merged instead of replaced. A list of objects is
	// merged by MergeKey; a list of scalars is unioned.
	Merge    bool
	MergeKey string
	// Schema describes the field's value (an object) or, for a list, its
	// elements.
	Schema *Schema
}

// field looks up a field; a nil schema knows nothing.
func (s *Schema) field(name string) *Field {
	if s == nil {
		return nil
	}
	return s.Fields[name]
}

// sub is the schema of a field's value, nil if unknown.
func (s *Schema) sub(name string) *Schema {
	if f := s.field(name); f != nil {
		return f.Schema
	}
	return nil
}

// ForType builds the schema of a Go struct type (or a pointer to one) from
// its struct tags: json names the field, patchStrategy:"merge" makes a list
// merge, patchMergeKey names the key its elements are matched by. These
// are the tags the OpenAPI schemas' x-kubernetes-patch-* extensions come
// from (apiserver/openapi/spec), so kubectl, which computes patches from
// those, and this package, which applies them, read one table. The result
// is not cached: build it once per type and keep it (ForKind does).
// Kubernetes: staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/
// meta.go (NewPatchMetaFromStruct, PatchMetaFromStruct.LookupPatchMetadataForSlice).
func ForType(t reflect.Type) *Schema {
	return (&schemaBuilder{seen: map[reflect.Type]*Schema{}}).object(t)
}

// ForKind returns the schema of a kind of api.Builtin(), built from its Go
// type the first time any is asked for; any other kind gets the schema of
// its metadata alone (finalizers and ownerReferences merge, the rest is a
// JSON merge patch).
func ForKind(group, kind string) *Schema {
	if s, ok := builtinSchemas()[group+"/"+kind]; ok {
		return s
	}
	return &Schema{Fields: map[string]*Field{
		"metadata": {Schema: ForType(reflect.TypeFor[api.ObjectMeta]())},
	}}
}

// builtinSchemas holds the schema of every built-in kind by "group/Kind";
// it is never written after it is built.
var builtinSchemas = sync.OnceValue(func() map[string]*Schema {
	out := map[string]*Schema{}
	for _, info := range api.Builtin().All() {
		out[info.Group+"/"+info.Kind] = ForType(reflect.TypeOf(info.New()))
	}
	return out
})

// schemaBuilder walks Go types; seen gives each struct type one Schema, so
// a type met twice (Container in containers and initContainers) is built
// once and a type that contains itself ends the walk.
type schemaBuilder struct {
	seen map[reflect.Type]*Schema
}

var jsonMarshaler = reflect.TypeFor[json.Marshaler]()

// object is the schema of a struct type; nil for anything that is not an
// object on the wire (scalars, and structs that marshal themselves, such as
// Time and IntOrString).
func (b *schemaBuilder) object(t reflect.Type) *Schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || reflect.PointerTo(t).Implements(jsonMarshaler) {
		return nil
	}
	if s, ok := b.seen[t]; ok {
		return s
	}
	s := &Schema{Fields: map[string]*Field{}}
	b.seen[t] = s
	b.addFields(s, t)
	return s
}

// addFields records every field of t that is an object or a list; an
// inline embedded struct (TypeMeta) adds its own fields.
func (b *schemaBuilder) addFields(s *Schema, t reflect.Type) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, _ := sf.Tag.Lookup("json")
		name, _, _ := strings.Cut(tag, ",")
		if tag == "-" || (!sf.IsExported() && !sf.Anonymous) {
			continue
		}
		ft := sf.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if sf.Anonymous && name == "" {
			if ft.Kind() == reflect.Struct {
				b.addFields(s, ft)
			}
			continue
		}
		if name == "" {
			name = sf.Name
		}
		f := &Field{MergeKey: sf.Tag.Get("patchMergeKey")}
		for _, strategy := range strings.Split(sf.Tag.Get("patchStrategy"), ",") {
			f.Merge = f.Merge || strategy == "merge"
		}
		switch ft.Kind() {
		case reflect.Slice, reflect.Array:
			f.Schema = b.object(ft.Elem())
		case reflect.Struct:
			f.Schema = b.object(ft)
		}
		if f.Merge || f.Schema != nil {
			s.Fields[name] = f
		}
	}
}
