package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
)

// Encode writes obj as JSON, the wire format every client speaks (and the
// one the store keeps custom resources in): json.Marshal's bytes, as
// Marshal (codec_fields.go) writes them.
func Encode(obj Object) ([]byte, error) {
	b, err := Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encoding %T: %w", obj, err)
	}
	return b, nil
}

// Decode reads JSON into into, ignoring unknown fields (fieldValidation
// Ignore). A wrongly typed field is an error that names the field. The
// result is json.Unmarshal's (into a zero value, codec_scan_decode.go
// decodes a clean body in one pass; codec_fields_decode.go reads
// managedFields faster).
//
// Unlike Kubernetes (sigs.k8s.io/json), field names match case-insensitively
// here because this is encoding/json; DecodeStrict reports a case mismatch
// as an unknown field, as Kubernetes does.
func Decode(data []byte, into Object) error {
	if u, ok := into.(*Unstructured); ok && u.decodeFast(data) { // unstructured_fast.go
		return nil
	}
	if decodeCleanInto(data, into) { // codec_scan_decode.go
		return nil
	}
	if decodeCuttingFields(data, into) { // codec_fields_decode.go
		return nil
	}
	if err := json.Unmarshal(data, into); err != nil {
		return describeJSONError(err)
	}
	return nil
}

// DecodeStrict decodes like Decode and also reports every field the Go type
// does not have (unknownFields, as JSON paths like "spec.containers[0].foo")
// and every field that appears twice in one object (duplicateFields). The
// apiserver turns these into a 400 (fieldValidation=Strict) or warnings
// (Warn). Malformed JSON and wrongly typed fields are errors.
func DecodeStrict(data []byte, into Object) (unknownFields, duplicateFields []string, err error) {
	return decodeStrict(data, into)
}

// DecodeStrictOptions is DecodeStrict for DeleteOptions, which is a body
// but not an Object.
func DecodeStrictOptions(data []byte, into *DeleteOptions) (unknownFields, duplicateFields []string, err error) {
	return decodeStrict(data, into)
}

// decodeStrict first asks the fast scan (codec_scan.go) whether the body is
// clean; then json.Unmarshal alone decodes it. A body it is not sure about,
// or one json.Unmarshal refuses, takes the token walk, which reports every
// path in Kubernetes' words. (Into a zero value, a clean body is first
// tried in one pass that scans and decodes: codec_scan_decode.go.)
func decodeStrict(data []byte, into any) (unknownFields, duplicateFields []string, err error) {
	if decodeCleanInto(data, into) { // codec_scan_decode.go
		return nil, nil, nil
	}
	if cleanBody(data, reflect.TypeOf(into).Elem()) && json.Unmarshal(data, into) == nil {
		return nil, nil, nil
	}
	return walkStrict(data, into)
}

// walkStrict is the token walk alone: every unknown and duplicate field by
// path, then json.Unmarshal.
func walkStrict(data []byte, into any) (unknownFields, duplicateFields []string, err error) {
	t := reflect.TypeOf(into).Elem()
	return walkStrictWith(data, into, func(w *strictWalker) error { return w.object(t, "") })
}

// walkStrictWith reads the top-level '{', lets members walk the object's
// members and its '}', checks nothing follows, then json.Unmarshal.
func walkStrictWith(data []byte, into any, members func(*strictWalker) error) (unknownFields, duplicateFields []string, err error) {
	w := &strictWalker{dec: json.NewDecoder(bytes.NewReader(data)), fields: map[reflect.Type]map[string]reflect.Type{}}
	w.dec.UseNumber()
	tok, err := w.dec.Token()
	if err != nil {
		return nil, nil, describeJSONError(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, fmt.Errorf("the body must be a JSON object, got %s", describeToken(tok))
	}
	if err := members(w); err != nil {
		return nil, nil, err
	}
	if _, err := w.dec.Token(); err != io.EOF {
		return nil, nil, fmt.Errorf("invalid JSON: unexpected data after the top-level object")
	}
	if err := json.Unmarshal(data, into); err != nil {
		return nil, nil, describeJSONError(err)
	}
	return w.unknown, w.duplicate, nil
}

// strictWalker reads the JSON token stream alongside the Go type, the way
// Kubernetes' strict decoder (sigs.k8s.io/json, UnmarshalStrict) checks
// fields against json tags.
type strictWalker struct {
	dec                *json.Decoder
	unknown, duplicate []string
	// fields caches the JSON field names of each struct type seen in this
	// call, inline embedded structs flattened.
	fields map[reflect.Type]map[string]reflect.Type
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// value checks the value that starts with tok against t.
func (w *strictWalker) value(tok json.Token, t reflect.Type, path string) error {
	if tok == nil {
		return nil // null fits every field
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	// A raw message and a FieldsV1 (managedFields' sets, a JSON object
	// kept as bytes) hold any JSON.
	if t == reflect.TypeFor[json.RawMessage]() || t == reflect.TypeFor[FieldsV1]() {
		return w.skip(tok) // any JSON is valid here
	}
	// A CRD schema's either-or types (customresourcedefinition_json.go)
	// are walked as the type their shape decodes into.
	if shaped, ok := shapedType(t); ok {
		alt := shaped.jsonShapeOf(firstByteOfToken(tok))
		if alt == nil {
			return w.typeError(path, shaped.jsonShapeName(), tok)
		}
		return w.value(tok, alt, path)
	}
	if reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		return w.custom(tok, t, path)
	}
	d, isDelim := tok.(json.Delim)
	switch t.Kind() {
	case reflect.Struct:
		if !isDelim || d != '{' {
			return w.typeError(path, "object", tok)
		}
		return w.object(t, path)
	case reflect.Map:
		if !isDelim || d != '{' {
			return w.typeError(path, "object", tok)
		}
		return w.mapValue(t, path)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			if _, ok := tok.(string); !ok {
				return w.typeError(path, "base64 string", tok)
			}
			return nil
		}
		if !isDelim || d != '[' {
			return w.typeError(path, "array", tok)
		}
		for i := 0; w.dec.More(); i++ {
			elem, err := w.dec.Token()
			if err != nil {
				return describeJSONError(err)
			}
			if err := w.value(elem, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, err := w.dec.Token() // ']'
		return err
	case reflect.String:
		if _, ok := tok.(string); !ok {
			return w.typeError(path, "string", tok)
		}
	case reflect.Bool:
		if _, ok := tok.(bool); !ok {
			return w.typeError(path, "boolean", tok)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := tok.(json.Number)
		if !ok {
			return w.typeError(path, "integer", tok)
		}
		v, err := n.Int64()
		if err != nil || v < math.MinInt64>>(64-t.Bits()) || v > math.MaxInt64>>(64-t.Bits()) {
			return fmt.Errorf("%s: %s is not a valid %s", path, n, t.Kind())
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := tok.(json.Number); !ok {
			return w.typeError(path, "number", tok)
		}
	case reflect.Interface:
		return w.skip(tok)
	}
	return nil
}

// member reads one object member's key and first value token, noting a
// key already in seen as a duplicate at its path.
func (w *strictWalker) member(path string, seen map[string]bool) (key, p string, val json.Token, err error) {
	keyTok, err := w.dec.Token()
	if err != nil {
		return "", "", nil, describeJSONError(err)
	}
	key = keyTok.(string)
	p = joinPath(path, key)
	if seen[key] {
		w.duplicate = append(w.duplicate, p)
	}
	seen[key] = true
	if val, err = w.dec.Token(); err != nil {
		return "", "", nil, describeJSONError(err)
	}
	return key, p, val, nil
}

// object reads the members of an object whose '{' was consumed.
func (w *strictWalker) object(t reflect.Type, path string) error {
	known := structFields(w.fields, t)
	seen := map[string]bool{}
	for w.dec.More() {
		key, p, valTok, err := w.member(path, seen)
		if err != nil {
			return err
		}
		ft, ok := known[key]
		if !ok {
			w.unknown = append(w.unknown, p)
			if err := w.skip(valTok); err != nil {
				return err
			}
			continue
		}
		if err := w.value(valTok, ft, p); err != nil {
			return err
		}
	}
	_, err := w.dec.Token() // '}'
	return err
}

func (w *strictWalker) mapValue(t reflect.Type, path string) error {
	seen := map[string]bool{}
	for w.dec.More() {
		_, p, valTok, err := w.member(path, seen)
		if err != nil {
			return err
		}
		if err := w.value(valTok, t.Elem(), p); err != nil {
			return err
		}
	}
	_, err := w.dec.Token()
	return err
}

// custom hands a scalar to the type's own UnmarshalJSON (Time, MicroTime,
// Quantity) so that its error can carry the field path.
func (w *strictWalker) custom(tok json.Token, t reflect.Type, path string) error {
	if _, isDelim := tok.(json.Delim); isDelim {
		if err := w.skip(tok); err != nil {
			return err
		}
		return fmt.Errorf("%s: expected a string, got %s", path, describeToken(tok))
	}
	raw, err := json.Marshal(tok)
	if err != nil {
		return err
	}
	if err := reflect.New(t).Interface().(json.Unmarshaler).UnmarshalJSON(raw); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// skip consumes the rest of a value whose first token is tok.
func (w *strictWalker) skip(tok json.Token) error {
	d, ok := tok.(json.Delim)
	if !ok || d == '}' || d == ']' {
		return nil
	}
	for depth := 1; depth > 0; {
		t, err := w.dec.Token()
		if err != nil {
			return describeJSONError(err)
		}
		if d, ok := t.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}

func (w *strictWalker) typeError(path, want string, tok json.Token) error {
	_ = w.skip(tok)
	return fmt.Errorf("%s: expected %s, got %s", path, want, describeToken(tok))
}

// jsonTag is the name and options of f's json tag, as encoding/json reads
// them; false for a field it skips (`json:"-"`). An empty name means the
// Go name, or, for an embedded struct, its fields flattened in place.
func jsonTag(f reflect.StructField) (name, opts string, ok bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", "", false
	}
	name, opts, _ = strings.Cut(tag, ",")
	return name, opts, true
}

// structFields maps JSON names to field types, with embedded structs that
// have no JSON name (TypeMeta, `json:",inline"`) flattened as encoding/json
// does. cache holds the types already mapped in this call.
func structFields(cache map[reflect.Type]map[string]reflect.Type, t reflect.Type) map[string]reflect.Type {
	if f, ok := cache[t]; ok {
		return f
	}
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, ok := jsonTag(f)
		if !ok {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for k, v := range structFields(cache, f.Type) {
				if _, clash := out[k]; !clash {
					out[k] = v
				}
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	cache[t] = out
	return out
}

func describeToken(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		return "an array"
	case string:
		return fmt.Sprintf("string %q", v)
	case bool:
		return fmt.Sprintf("boolean %v", v)
	case json.Number:
		return "number " + v.String()
	}
	return fmt.Sprintf("%v", tok)
}

// describeJSONError rewrites encoding/json errors so they name the field
// by its JSON path.
func describeJSONError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return fmt.Errorf("%s: expected %s, got %s: %w", typeErr.Field, typeErr.Type, typeErr.Value, err)
	case errors.As(err, &syntaxErr):
		return fmt.Errorf("invalid JSON at byte %d: %w", syntaxErr.Offset, err)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return fmt.Errorf("invalid JSON: unexpected end of input: %w", err)
	}
	return err
}
