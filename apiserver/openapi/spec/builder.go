package spec

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"kubeloop/api"
)

// Definitions are schemas by definition name. A Schema in it may reference
// others only by name (Schema.Ref), and every name it references is in it.
type Definitions map[string]*Schema

// builder walks Go types by reflection and collects the definition of
// every named struct it meets. Its Definitions are complete once the walk
// from the roots returns.
type builder struct {
	defs Definitions
	// names maps each walked Go type to its definition name, and guards
	// against two Go types claiming one name.
	names map[reflect.Type]string
}

func newBuilder() *builder {
	return &builder{defs: Definitions{}, names: map[reflect.Type]string{}}
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	byteSlice       = reflect.TypeFor[[]byte]()
	extraValue      = reflect.TypeFor[api.ExtraValue]()
)

// define makes sure t (a struct, or one of the special types) has a
// definition and returns its name.
func (b *builder) define(t reflect.Type) (string, error) {
	if name, ok := b.names[t]; ok {
		return name, nil
	}
	name := definitionName(t)
	if _, taken := b.defs[name]; taken {
		return "", fmt.Errorf("openapi: %v and another Go type are both %s", t, name)
	}
	b.names[t] = name
	if s, ok := specialSchema(t); ok {
		b.defs[name] = s
		return name, nil
	}
	if t.Kind() != reflect.Struct {
		return "", fmt.Errorf("openapi: %v is not a struct", t)
	}
	s := &Schema{Type: "object", Description: api.Description(goName(t), "")}
	// Registered before its fields are walked, so a type that contains
	// itself (through a pointer or a slice) refers to its own name.
	b.defs[name] = s
	if err := b.addFields(s, t, docName(t)); err != nil {
		return "", err
	}
	return name, nil
}

// docName is the type whose field comments describe t's fields: the
// generic List for every list.
func docName(t reflect.Type) string {
	if _, ok := listItems(t); ok {
		return "List"
	}
	return t.Name()
}

// addFields adds the properties of struct t to s; an inline embedded
// struct adds its own fields, documented by its own comments.
func (b *builder) addFields(s *Schema, t reflect.Type, doc string) error {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, skip := jsonName(f)
		if skip {
			continue
		}
		if name == "" { // inline (TypeMeta), or embedded without a json name
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if err := b.addFields(s, ft, docName(ft)); err != nil {
				return err
			}
			continue
		}
		p, err := b.use(f.Type, !opts.omitempty)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
		}
		p.Description = api.Description(doc, f.Name)
		addPatchExtensions(p, f.Tag)
		if s.Properties == nil {
			s.Properties = map[string]*Schema{}
		}
		s.Properties[name] = p
		if isRequired(goName(t), name, opts) {
			s.Required = append(s.Required, name)
		}
	}
	return nil
}

// use is the schema of a value of type t where it is used (a field, an
// item, a map value): a reference for a named struct, the schema itself
// for everything else. notOmitted says whether the JSON always carries it
// (no omitempty); it decides the default, as in kube-openapi's
// mustEnforceDefault.
func (b *builder) use(t reflect.Type, notOmitted bool) (*Schema, error) {
	if t == byteSlice {
		return &Schema{Type: "string", Format: "byte"}, nil
	}
	if t == extraValue {
		// A struct only for protobuf's sake; on the wire, and in
		// Kubernetes' documents, a list of strings.
		return &Schema{Type: "array", Items: &Schema{Type: "string", Default: ""}}, nil
	}
	if _, special := specialSchema(t); special || (t.Kind() == reflect.Struct && t.Name() != "") {
		name, err := b.define(t)
		if err != nil {
			return nil, err
		}
		return &Schema{Ref: name, Default: zeroDefault(t, notOmitted)}, nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		// A nil pointer decodes to nil: no default.
		s, err := b.use(t.Elem(), false)
		if err == nil {
			s.Default = nil
		}
		return s, err
	case reflect.Slice, reflect.Array:
		items, err := b.use(t.Elem(), true)
		if err != nil {
			return nil, err
		}
		return &Schema{Type: "array", Items: items}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map key %v is not a string", t.Key())
		}
		values, err := b.use(t.Elem(), true)
		if err != nil {
			return nil, err
		}
		return &Schema{Type: "object", AdditionalProperties: values}, nil
	}
	typ, format, ok := scalar(t.Kind())
	if !ok {
		return nil, fmt.Errorf("no OpenAPI type for %v", t)
	}
	return &Schema{Type: typ, Format: format, Default: zeroDefault(t, notOmitted)}, nil
}

// scalar is the OpenAPI type and format of a Go kind, as kube-openapi maps
// them (common.OpenAPITypeFormat): a Go int is an int32 on the wire.
func scalar(k reflect.Kind) (typ, format string, ok bool) {
	switch k {
	case reflect.String:
		return "string", "", true
	case reflect.Bool:
		return "boolean", "", true
	case reflect.Int, reflect.Int32, reflect.Int16, reflect.Int8, reflect.Uint16, reflect.Uint8:
		return "integer", "int32", true
	case reflect.Int64, reflect.Uint32, reflect.Uint64, reflect.Uint:
		return "integer", "int64", true
	case reflect.Float64:
		return "number", "double", true
	case reflect.Float32:
		return "number", "float", true
	}
	return "", "", false
}

// zeroDefault is the default Kubernetes' generator writes for a value of
// type t: the value the JSON decoder leaves when the field is absent. A
// struct decodes to its zero ({}); a scalar that is always written, or is
// an item of a list or map, to its zero; nothing for pointers, lists,
// maps and types that decode themselves (Time, Quantity), whose zero is
// null.
func zeroDefault(t reflect.Type, notOmitted bool) any {
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		return map[string]any{}
	case reflect.String:
		if notOmitted {
			return ""
		}
	case reflect.Bool:
		if notOmitted {
			return false
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		if notOmitted {
			return 0
		}
	}
	return nil
}

type jsonOptions struct {
	omitempty bool // omitempty or omitzero: the field may be absent
}

// jsonName reads a field's json tag as encoding/json does: skip for "-"
// and unexported fields, "" for an inline or untagged embedded struct.
func jsonName(f reflect.StructField) (name string, opts jsonOptions, skip bool) {
	tag, hasTag := f.Tag.Lookup("json")
	if tag == "-" {
		return "", opts, true
	}
	parts := strings.Split(tag, ",")
	for _, o := range parts[1:] {
		if o == "omitempty" || o == "omitzero" {
			opts.omitempty = true
		}
	}
	name = parts[0]
	if f.Anonymous && name == "" {
		return "", opts, false
	}
	if !f.IsExported() {
		return "", opts, true
	}
	if !hasTag || name == "" {
		name = f.Name
	}
	return name, opts, false
}

// addPatchExtensions copies a field's strategic-merge-patch tags into the
// vendor extensions kubectl reads: the same tags apiserver/strategicpatch
// merges by, so the schema and the patcher cannot disagree.
func addPatchExtensions(s *Schema, tag reflect.StructTag) {
	if v := tag.Get("patchStrategy"); v != "" {
		setExtension(s, ExtPatchStrategy, v)
	}
	if v := tag.Get("patchMergeKey"); v != "" {
		setExtension(s, ExtPatchMergeKey, v)
	}
}

func setExtension(s *Schema, key string, v any) {
	if s.Extensions == nil {
		s.Extensions = map[string]any{}
	}
	s.Extensions[key] = v
}
