package typed

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// Kind is what a Type describes.
type Kind int

const (
	// Scalar is a string, number, boolean or a type that writes itself as
	// one (Time, Quantity, IntOrString).
	Scalar Kind = iota
	// Struct has named fields; Map has keys of any name, all of one type.
	Struct
	Map
	List
	// Untyped is a value whose shape the schema does not know (an
	// interface{} field); it is treated as one atomic value.
	Untyped
)

// List element relationships, the values of the listType tag.
const (
	ListAtomic = "atomic"
	ListSet    = "set"
	ListMap    = "map"
)

// Type is the schema of one JSON value.
type Type struct {
	Kind Kind
	// ScalarType names a scalar for error messages: string, numeric,
	// boolean or untyped (any scalar, as IntOrString and Quantity are).
	ScalarType string
	// Atomic: the value is owned and replaced as a whole (an atomic struct
	// or map; for lists see ListType).
	Atomic bool
	// Fields are a Struct's fields by JSON name.
	Fields map[string]*Type
	// Elem is the type of a Map's values or a List's elements; on a
	// Struct, of the fields it keeps without declaring them (a custom
	// resource's x-kubernetes-preserve-unknown-fields), nil if none.
	Elem *Type
	// ListType is atomic, set or map; Keys are a map list's key fields and
	// KeyDefaults the values of key fields an element may omit.
	ListType    string
	Keys        []string
	KeyDefaults map[string]any
}

// TypeFor builds the schema of a Go type from its struct tags. Types met
// twice share one *Type, so recursive types end.
func TypeFor(t reflect.Type) *Type {
	return (&builder{seen: map[reflect.Type]*Type{}}).build(t)
}

// ForObject returns the schema of an object of a built-in Go type (a pointer
// to a struct such as *api.Pod), built once per type.
func ForObject(obj any) *Type {
	t := reflect.TypeOf(obj)
	if s, ok := cache.Load(t); ok {
		return s.(*Type)
	}
	s, _ := cache.LoadOrStore(t, TypeFor(t))
	return s.(*Type)
}

// cache holds built schemas by Go type; types never change while a
// process runs, so it is only ever added to.
var cache sync.Map

type builder struct {
	seen map[reflect.Type]*Type
}

var jsonMarshaler = reflect.TypeFor[json.Marshaler]()

func (b *builder) build(t reflect.Type) *Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s, ok := b.seen[t]; ok {
		return s
	}
	if reflect.PointerTo(t).Implements(jsonMarshaler) || t.Implements(jsonMarshaler) {
		// Time, Quantity, IntOrString, FieldsV1 write themselves: one value.
		s := &Type{Kind: Scalar, ScalarType: "untyped"}
		if t.Kind() == reflect.Struct && t.NumField() == 1 && t.Field(0).Type.Kind() == reflect.Slice {
			s = &Type{Kind: Untyped} // FieldsV1, RawExtension: any JSON
		}
		b.seen[t] = s
		return s
	}
	switch t.Kind() {
	case reflect.Struct:
		s := &Type{Kind: Struct, Fields: map[string]*Type{}}
		b.seen[t] = s
		b.addFields(s, t)
		return s
	case reflect.Map:
		return &Type{Kind: Map, Elem: b.build(t.Elem())}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return &Type{Kind: Scalar, ScalarType: "string"} // base64
		}
		return &Type{Kind: List, ListType: ListAtomic, Elem: b.build(t.Elem())}
	case reflect.String:
		return &Type{Kind: Scalar, ScalarType: "string"}
	case reflect.Bool:
		return &Type{Kind: Scalar, ScalarType: "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return &Type{Kind: Scalar, ScalarType: "numeric"}
	}
	return &Type{Kind: Untyped}
}

// addFields adds t's fields to s; an embedded struct without a JSON name
// (TypeMeta, LocalObjectReference) adds its own fields inline.
func (b *builder) addFields(s *Type, t reflect.Type) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if tag == "-" || (!sf.IsExported() && !sf.Anonymous) {
			continue
		}
		if sf.Anonymous && name == "" {
			ft := sf.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				b.addFields(s, ft)
			}
			continue
		}
		if name == "" {
			name = sf.Name
		}
		s.Fields[name] = b.field(sf)
	}
}

// field is the type of one struct field with its tags applied. A tag that
// changes a shared type (structType:"atomic") works on a copy.
func (b *builder) field(sf reflect.StructField) *Type {
	ft := b.build(sf.Type)
	atomicValue := sf.Tag.Get("structType") == "atomic" || sf.Tag.Get("mapType") == "atomic"
	if ft.Kind != List {
		if atomicValue && !ft.Atomic {
			c := *ft
			c.Atomic = true
			ft = &c
		}
		return ft
	}
	l := *ft
	if atomicValue {
		e := *l.Elem
		e.Atomic = true
		l.Elem = &e
	}
	l.ListType, l.Keys = listTypeOf(sf.Tag)
	if len(l.Keys) > 0 {
		l.KeyDefaults = keyDefaults(sf.Type, l.Keys)
	}
	return &l
}

// listTypeOf reads listType/listMapKey, else derives the list type from
// the patch strategy as Kubernetes' OpenAPI conversion does.
func listTypeOf(tag reflect.StructTag) (string, []string) {
	if lt, ok := tag.Lookup("listType"); ok {
		var keys []string
		if k := tag.Get("listMapKey"); k != "" && lt == ListMap {
			keys = strings.Split(k, ",")
		}
		return lt, keys
	}
	if strings.Contains(tag.Get("patchStrategy"), "merge") {
		if k := tag.Get("patchMergeKey"); k != "" {
			return ListMap, []string{k}
		}
		return ListSet, nil
	}
	return ListAtomic, nil
}

// keyDefaults reads default:"..." on the key fields of a list's element
// struct (ports' protocol is TCP when omitted).
func keyDefaults(list reflect.Type, keys []string) map[string]any {
	elem := list.Elem()
	for elem.Kind() == reflect.Pointer {
		elem = elem.Elem()
	}
	if elem.Kind() != reflect.Struct {
		return nil
	}
	out := map[string]any{}
	for i := range elem.NumField() {
		sf := elem.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		def, ok := sf.Tag.Lookup("default")
		if !ok {
			continue
		}
		for _, k := range keys {
			if k == name {
				out[k] = def
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// ToValue turns a Go object into the JSON value the walks read: its JSON
// decoded with numbers kept as json.Number. It is what
//
//	b, _ := json.Marshal(obj)
//	v, _ := DecodeValue(b)
//
// gives (toValueByJSON), made without writing and parsing the JSON
// (tovalue_reflect.go; skip it on a first reading).
func ToValue(obj any) (any, error) {
	return toValueByReflection(obj)
}

// ToValueWithoutManagedFields is ToValue without metadata.managedFields:
// ownership is not itself owned, compared or merged.
func ToValueWithoutManagedFields(obj any) (any, error) {
	return toValueWithoutManagedFields(obj)
}

// toValueByJSON is ToValue the plain way, the reference the reflection
// walk is tested against.
func toValueByJSON(obj any) (any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return DecodeValue(b)
}

// DecodeValue decodes JSON with numbers kept as json.Number, so keys and
// values are written back as they came.
func DecodeValue(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}
