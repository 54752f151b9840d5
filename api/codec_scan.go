package api

// Skip on a first reading: this file is a speed-up. DecodeStrict is complete
// without it: walkStrict (codec.go), the token walk that names every unknown
// and duplicate field, then json.Unmarshal, is the plain path the docs cite.
// What it saves: a clean Pod status body, with the managedFields a kubelet
// writes back, decodes with 74 instead of 856 allocations and in about a
// fifth of the time (BenchmarkDecodeStrict against
// BenchmarkDecodeStrictWithoutScan in codec_scan_test.go, on a shared
// 2-core VM).

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// keyScanner is DecodeStrict's fast path. It reads the raw bytes once,
// alongside the Go type, and only answers "is this body plainly clean":
// every key is a field of its struct spelled exactly, no object repeats a
// key, and every value has the JSON kind its field wants. Anything else
// (an unknown or duplicate key, an escaped key, a wrong kind, bad syntax)
// is "not sure", and DecodeStrict takes the slow token walk, which names
// each problem. Most bodies are clean, so most writes cost one scan plus
// one json.Unmarshal instead of a token stream plus json.Unmarshal (or,
// into a zero value, the one pass of codec_scan_decode.go, which does
// this scan's checks as it decodes).
type keyScanner struct {
	data []byte
	i    int
	// known is the read-only table of the built-in kinds' types
	// (builtinScanTypes); types holds, for this call, any other type met.
	known, types map[reflect.Type]*scanType
	// keyCompares counts the key comparisons duplicate detection made, the
	// measure of work the linearity test reads (TestDecodeStrictIsLinearInMapKeys).
	keyCompares int
}

// builtinScanTypes is built once, from every type reachable from the
// built-in kinds and request bodies, and never changed after: reading the
// struct tags of a pod's types on every request cost more than the scan.
var builtinScanTypes = sync.OnceValue(func() map[reflect.Type]*scanType {
	s := &keyScanner{types: map[reflect.Type]*scanType{}}
	roots := []reflect.Type{reflect.TypeFor[Binding](), reflect.TypeFor[Scale](), reflect.TypeFor[DeleteOptions]()}
	for _, info := range Builtin().All() {
		roots = append(roots, reflect.TypeOf(info.New()).Elem())
	}
	for _, t := range roots {
		s.visit(t)
	}
	return s.types
})

// visit makes the entries of t and of every type reachable from it. A
// slice or map type gets its own entry too (value asks for it): without
// one every body with a map or a list made a table of its own.
func (s *keyScanner) visit(t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if _, done := s.types[t]; done {
		return
	}
	st := s.typeInfo(t)
	if k := t.Kind(); k == reflect.Slice || k == reflect.Map {
		s.visit(t.Elem())
	}
	for _, f := range st.fields {
		s.visit(f.t)
	}
}

// scanType is what the scan needs of a type. Fields are a slice searched
// linearly: cheaper to build than a map, and as quick to search for
// structs of a few dozen fields.
type scanType struct {
	custom bool       // has its own UnmarshalJSON
	shaped jsonShaped // one of several shapes (customresourcedefinition_json.go)
	fields []scanField
	// text: it has UnmarshalText (and no UnmarshalJSON), which
	// encoding/json uses for a string.
	text bool
	// plain says the decoder of clean bodies (codec_scan_decode.go) may
	// set this struct's fields itself: see plainStruct.
	plain bool
}

type scanField struct {
	name  string
	t     reflect.Type
	index []int // the field's path through embedded structs (reflect.Value.FieldByIndex)
}

// cleanBody reports whether data is one JSON object that fits t cleanly.
func cleanBody(data []byte, t reflect.Type) bool {
	return newKeyScanner(data).clean(t)
}

func newKeyScanner(data []byte) *keyScanner {
	return &keyScanner{data: data, known: builtinScanTypes()}
}

func (s *keyScanner) clean(t reflect.Type) bool {
	s.ws()
	if s.peek() != '{' || !s.value(t) {
		return false
	}
	s.ws()
	return s.i == len(s.data)
}

func (s *keyScanner) ws() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *keyScanner) peek() byte {
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

// value checks the value at s.i against t, mirroring strictWalker.value.
func (s *keyScanner) value(t reflect.Type) bool {
	s.ws()
	if s.peek() == 'n' {
		return s.literal("null") // null fits every field
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	// A FieldsV1 (managedFields' sets) holds any JSON, as in the walk:
	// without this every update that carries managedFields back (all of
	// a kubelet's GET-then-update heartbeats) took the slow path.
	// Their keys are not fields, so escaped keys (a list item's
	// `k:{\"type\":\"Ready\"}`) are fine there.
	if t == reflect.TypeFor[FieldsV1]() {
		return s.skipRaw()
	}
	if t == reflect.TypeFor[json.RawMessage]() || t.Kind() == reflect.Interface {
		return s.skipValue()
	}
	c := s.peek()
	st := s.typeInfo(t)
	if st.shaped != nil {
		// A CRD schema's either-or types: check the shape's type.
		alt := st.shaped.jsonShapeOf(c)
		return alt != nil && s.value(alt)
	}
	if st.custom {
		// Time, Quantity: a scalar their UnmarshalJSON will judge.
		return c != '{' && c != '[' && s.skipValue()
	}
	switch t.Kind() {
	case reflect.Struct:
		return c == '{' && s.object(st.fields, nil)
	case reflect.Map:
		return c == '{' && s.object(nil, t.Elem())
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return c == '"' && s.skipString()
		}
		return c == '[' && s.array(t.Elem())
	case reflect.String:
		return c == '"' && s.skipString()
	case reflect.Bool:
		return (c == 't' && s.literal("true")) || (c == 'f' && s.literal("false"))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Float32, reflect.Float64:
		// Range and fraction are json.Unmarshal's to refuse.
		return (c == '-' || (c >= '0' && c <= '9')) && s.skipNumber()
	}
	return s.skipValue()
}

// object checks an object's members: against a struct's fields, or, for a
// map (fields nil), every member against elem.
func (s *keyScanner) object(fields []scanField, elem reflect.Type) bool {
	s.i++ // '{'
	var seen keySet
	s.ws()
	if s.peek() == '}' {
		s.i++
		return true
	}
	for {
		s.ws()
		key, ok := s.key()
		if !ok {
			return false
		}
		if !seen.add(key, &s.keyCompares) {
			return false // a duplicate: the slow path names it
		}
		t := elem
		if elem == nil {
			if t = lookupField(fields, key); t == nil {
				return false
			}
		}
		s.ws()
		if s.peek() != ':' {
			return false
		}
		s.i++
		if !s.value(t) {
			return false
		}
		if end, ok := s.next('}'); end || !ok {
			return ok
		}
	}
}

func (s *keyScanner) array(elem reflect.Type) bool {
	s.i++ // '['
	s.ws()
	if s.peek() == ']' {
		s.i++
		return true
	}
	for {
		if !s.value(elem) {
			return false
		}
		if end, ok := s.next(']'); end || !ok {
			return ok
		}
	}
}

// key reads an object key without escapes (an escaped key could spell a
// field in a way the exact comparison misses: the slow path decides).
func (s *keyScanner) key() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	start := s.i + 1
	for j := start; j < len(s.data); j++ {
		switch s.data[j] {
		case '\\':
			return nil, false
		case '"':
			s.i = j + 1
			return s.data[start:j], true
		}
	}
	return nil, false
}

func (s *keyScanner) skipString() bool {
	for j := s.i + 1; j < len(s.data); j++ {
		switch s.data[j] {
		case '\\':
			j++
		case '"':
			s.i = j + 1
			return true
		}
	}
	return false
}

// next passes the comma after a member or element, or the close that
// ends the object or array: end reports the close, ok false anything else.
func (s *keyScanner) next(close byte) (end, ok bool) {
	s.ws()
	switch s.peek() {
	case ',':
		s.i++
		return false, true
	case close:
		s.i++
		return true, true
	}
	return false, false
}

func (s *keyScanner) skipNumber() bool {
	start := s.i
	for s.i < len(s.data) {
		switch c := s.data[s.i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			s.i++
		default:
			return s.i > start
		}
	}
	return s.i > start
}

func (s *keyScanner) literal(lit string) bool {
	if !bytes.HasPrefix(s.data[s.i:], []byte(lit)) {
		return false
	}
	s.i += len(lit)
	return true
}

// skipValue passes over any value; json.Unmarshal validates its syntax.
func (s *keyScanner) skipValue() bool {
	s.ws()
	switch c := s.peek(); {
	case c == '{':
		return s.object(nil, reflect.TypeFor[json.RawMessage]())
	case c == '[':
		return s.array(reflect.TypeFor[json.RawMessage]())
	case c == '"':
		return s.skipString()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	default:
		return s.skipNumber()
	}
}

// skipRaw passes over any value by its brackets and strings alone,
// checking no keys; json.Unmarshal, which runs after a clean scan,
// validates its syntax.
func (s *keyScanner) skipRaw() bool {
	s.ws()
	if c := s.peek(); c != '{' && c != '[' {
		return s.skipValue()
	}
	depth := 0
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case '"':
			if !s.skipString() {
				return false
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				s.i++
				return true
			}
		}
		s.i++
	}
	return false
}

func lookupField(fields []scanField, key []byte) reflect.Type {
	for _, f := range fields {
		if f.name == string(key) {
			return f.t
		}
	}
	return nil
}

// typeInfo is t's entry, made on first use. A struct's fields are its
// JSON names, embedded structs without a name flattened (as structFields).
func (s *keyScanner) typeInfo(t reflect.Type) *scanType {
	if st, ok := s.known[t]; ok {
		return st
	}
	if st, ok := s.types[t]; ok {
		return st
	}
	st := &scanType{custom: reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]())}
	st.shaped, _ = shapedType(t)
	st.text = !st.custom && reflect.PointerTo(t).Implements(reflect.TypeFor[encoding.TextUnmarshaler]())
	if s.types == nil {
		s.types = map[reflect.Type]*scanType{}
	}
	s.types[t] = st
	if t.Kind() == reflect.Struct && !st.custom {
		st.fields = s.appendFields(nil, t)
		st.plain = plainStruct(t, map[string]bool{})
	}
	return st
}

// plainStruct reports whether encoding/json sees t's fields as
// appendFields lists them and sets them as cleanDecoder does: no JSON name
// twice anywhere in the flattened struct (which one encoding/json picks
// is not repeated here), no embedded pointer (encoding/json allocates
// those), no `,string` option. names holds the names met so far.
func plainStruct(t reflect.Type, names map[string]bool) bool {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, ok := jsonTag(f)
		if !ok {
			continue
		}
		if f.Anonymous && name == "" {
			switch f.Type.Kind() {
			case reflect.Struct:
				if !plainStruct(f.Type, names) {
					return false
				}
				continue
			case reflect.Pointer:
				return false
			}
		}
		if !f.IsExported() {
			continue
		}
		if strings.Contains(","+opts+",", ",string,") {
			return false
		}
		if name == "" {
			name = f.Name
		}
		if names[name] {
			return false
		}
		names[name] = true
	}
	return true
}

func (s *keyScanner) appendFields(out []scanField, t reflect.Type) []scanField {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, ok := jsonTag(f)
		if !ok {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for _, e := range s.appendFields(nil, f.Type) {
				if lookupField(out, []byte(e.name)) == nil {
					e.index = append([]int{i}, e.index...)
					out = append(out, e)
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
		out = append(out, scanField{name, f.Type, []int{i}})
	}
	return out
}
