package typed

// Skip on a first reading: a speed-up. ToValue could marshal an object to
// JSON and parse it back (toValueByJSON); every tracked write does that
// for the stored and the new object, and on a pod it was a third of what
// managedFields tracking costs (BenchmarkUpdatePod in apiserver/fieldmanager,
// BenchmarkCreateUpdateManagedFields in apiserver). This walk builds the
// same value straight from the Go object by reflection, following
// encoding/json's rules for what kubeloop's api types use: json tags,
// omitempty and omitzero, inline embedded structs, []byte as base64, and
// types that write themselves (MarshalJSON: Time, Quantity, IntOrString,
// Unstructured), whose output is parsed as before.
// TestToValueByReflectionEqualsJSON holds the two to each other.

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"kubeloop/apiserver/fieldmanager/fieldpath"
)

func toValueByReflection(obj any) (any, error) {
	if obj == nil {
		return nil, nil
	}
	return reflectValue(reflect.ValueOf(obj))
}

// toValueWithoutManagedFields is ToValue without metadata.managedFields,
// which nobody owns and whose FieldsV1 would have to be parsed.
func toValueWithoutManagedFields(obj any) (any, error) {
	v := reflect.Indirect(reflect.ValueOf(obj))
	if u, ok := unstructuredOf(reflect.ValueOf(obj)); ok { // unstructured_value.go
		return unstructuredValue(u, "managedFields")
	}
	if v.Kind() != reflect.Struct || v.Type().Implements(marshalerType) || reflect.PointerTo(v.Type()).Implements(marshalerType) {
		out, err := toValueByReflection(obj)
		dropManagedFields(out)
		return out, err
	}
	return reflectStructOmitting(v, "", "managedFields")
}

func dropManagedFields(v any) {
	if m, ok := v.(map[string]any); ok {
		if md, ok := m["metadata"].(map[string]any); ok {
			delete(md, "managedFields")
		}
	}
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func reflectValue(v reflect.Value) (any, error) {
	if !v.IsValid() {
		return nil, nil
	}
	t := v.Type()
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil, nil
		}
	}
	if u, ok := unstructuredOf(v); ok { // unstructured_value.go
		return unstructuredValue(u, "")
	}
	if writesItself(t) { // remembered per type (compare_reflect.go)
		if t.Implements(marshalerType) {
			if t.Kind() == reflect.Pointer && v.IsNil() {
				return nil, nil
			}
			return fromMarshaler(v.Interface().(json.Marshaler))
		}
		if t.Kind() != reflect.Pointer && v.CanAddr() && reflect.PointerTo(t).Implements(marshalerType) {
			return fromMarshaler(v.Addr().Interface().(json.Marshaler))
		}
		if t.Implements(textMarshalerType) {
			text, err := v.Interface().(encoding.TextMarshaler).MarshalText()
			return string(text), err
		}
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		return reflectValue(v.Elem())
	case reflect.Struct:
		return reflectStruct(v)
	case reflect.Map:
		if v.IsNil() {
			return nil, nil
		}
		out := make(map[string]any, v.Len())
		iter := v.MapRange()
		for iter.Next() {
			key, err := mapKey(iter.Key())
			if err != nil {
				return nil, err
			}
			val, err := reflectValue(iter.Value())
			if err != nil {
				return nil, err
			}
			out[key] = val
		}
		return out, nil
	case reflect.Slice:
		if v.IsNil() {
			return nil, nil
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return base64.StdEncoding.EncodeToString(v.Bytes()), nil
		}
		fallthrough
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range v.Len() {
			e, err := reflectValue(v.Index(i))
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	case reflect.String:
		return v.String(), nil
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(v.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return json.Number(strconv.FormatUint(v.Uint(), 10)), nil
	case reflect.Float32, reflect.Float64:
		b, err := json.Marshal(v.Interface()) // encoding/json's float format
		return json.Number(b), err
	}
	return nil, fmt.Errorf("json: unsupported type: %s", t)
}

// fromMarshaler parses what a type writes of itself; the common shapes
// (null, a string, a number, a boolean) without a decoder.
func fromMarshaler(m json.Marshaler) (any, error) {
	b, err := m.MarshalJSON()
	if err != nil {
		return nil, err
	}
	switch {
	case len(b) == 0:
		return nil, fmt.Errorf("json: %T wrote nothing", m)
	case string(b) == "null":
		return nil, nil
	case string(b) == "true":
		return true, nil
	case string(b) == "false":
		return false, nil
	case b[0] == '"':
		var s string
		err := json.Unmarshal(b, &s)
		return s, err
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'):
		return json.Number(b), nil
	}
	return DecodeValue(b)
}

func mapKey(k reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	if tm, ok := k.Interface().(encoding.TextMarshaler); ok {
		b, err := tm.MarshalText()
		return string(b), err
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), nil
	}
	return "", fmt.Errorf("json: unsupported map key type: %s", k.Type())
}

// jsonField is one field a struct writes: where it is (an index path
// through inline embedded structs) and how its tag says to write it.
type jsonField struct {
	name      string
	pe        fieldpath.PathElement // Field(name), made once (compare_reflect.go)
	index     []int
	omitEmpty bool
	omitZero  bool
	quoted    bool
}

// structFields caches each struct type's fields; types never change while
// a process runs.
var structFields sync.Map // reflect.Type → []jsonField

func fieldsOf(t reflect.Type) []jsonField {
	if fs, ok := structFields.Load(t); ok {
		return fs.([]jsonField)
	}
	var fs []jsonField
	collectFields(t, nil, &fs)
	// encoding/json: a field at a shallower depth hides deeper ones of the
	// same name; kubeloop's types have no such clashes, so the first wins.
	seen := map[string]bool{}
	out := fs[:0]
	for _, f := range fs {
		if !seen[f.name] {
			seen[f.name] = true
			out = append(out, f)
		}
	}
	structFields.Store(t, out)
	return out
}

func collectFields(t reflect.Type, prefix []int, out *[]jsonField) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		index := append(append([]int(nil), prefix...), i)
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				collectFields(ft, index, out)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		f := jsonField{name: name, pe: fieldpath.Field(name), index: index}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				f.omitEmpty = true
			case "omitzero":
				f.omitZero = true
			case "string":
				f.quoted = true
			}
		}
		*out = append(*out, f)
	}
}

func reflectStruct(v reflect.Value) (any, error) { return reflectStructOmitting(v, "", "") }

// reflectStructOmitting writes a struct without its field omit, and its
// metadata field without the field omitInMetadata.
func reflectStructOmitting(v reflect.Value, omit, omitInMetadata string) (any, error) {
	fs := fieldsOf(v.Type())
	out := make(map[string]any, len(fs))
	for _, f := range fs {
		if f.name == omit {
			continue
		}
		fv, ok := fieldByIndex(v, f.index)
		if !ok {
			continue // inside a nil embedded pointer
		}
		if (f.omitEmpty && isEmptyValue(fv)) || (f.omitZero && isZeroValue(fv)) {
			continue
		}
		var val any
		var err error
		if omitInMetadata != "" && f.name == "metadata" && fv.Kind() == reflect.Struct {
			val, err = reflectStructOmitting(fv, omitInMetadata, "")
		} else {
			val, err = reflectValue(fv)
		}
		if err != nil {
			return nil, err
		}
		if f.quoted {
			if n, isNum := val.(json.Number); isNum {
				val = string(n)
			} else if b, isBool := val.(bool); isBool {
				val = strconv.FormatBool(b)
			}
		}
		out[f.name] = val
	}
	return out, nil
}

func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// isEmptyValue is encoding/json's omitempty test.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// isZeroValue is encoding/json's omitzero test: an IsZero method if the
// type has one, else the zero value.
func isZeroValue(v reflect.Value) bool {
	if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
		if v.Kind() == reflect.Pointer && v.IsNil() {
			return true
		}
		return z.IsZero()
	}
	if v.CanAddr() {
		if z, ok := v.Addr().Interface().(interface{ IsZero() bool }); ok {
			return z.IsZero()
		}
	}
	return v.IsZero()
}
