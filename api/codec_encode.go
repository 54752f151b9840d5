package api

// Skip on a first reading: a speed-up. Marshal (and Encode, which calls
// it) is complete without it: json.Marshal's bytes are the plain path the
// docs cite.
//
// What it saves: encoding/json calls each Time's MarshalJSON (an
// allocation per timestamp) and then re-reads what it returned with its
// byte-at-a-time compactor, does the same with every managedFields set,
// and sorts every map through reflect values it allocates. Built-in kinds
// are written here from a table of their fields made once: timestamps
// appended in place, a set copied after a check that compacting would
// not change it, string maps sorted on the stack. A created ConfigMap
// encodes in about half of Marshal's time with 1 allocation instead of 8,
// a created Pod with 1 instead of 30 (BenchmarkEncodeCreate/*/json,
// kubeloop against encoding-json, in codec_bench_test.go).
//
// Why the bytes are json.Marshal's: each rule below is encoding/json's
// (field order, omitempty and omitzero, HTML-escaped strings through
// quoteJSON, sorted map keys, base64 for []byte, null for nil), and
// anything it does not repeat gives up, leaving the object to the rest of
// Marshal (codec_fields.go): a float, an interface, an array, a
// TextMarshaler, a struct whose fields encoding/json might resolve
// differently (plainStruct), a MarshalJSON whose output compacting would
// change. TestEncodeIsJSONMarshal and
// FuzzDecode hold the two to the same bytes.

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// encodeClean appends obj's JSON to b; false when it gives up.
func encodeClean(b []byte, obj Object) ([]byte, bool) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return b, false
	}
	p, ok := builtinEncodePlans()[v.Type().Elem()]
	if !ok {
		return b, false
	}
	return p.append(b, v.Elem())
}

type encodeKind uint8

const (
	encodeUnsupported encodeKind = iota
	encodeString
	encodeBool
	encodeInt
	encodeUint
	encodeStruct
	encodePointer
	encodeSlice
	encodeBytes
	encodeMap
	encodeStringMap // map[string]string
	encodeTime
	encodeMicroTime
	encodeQuantity  // MarshalJSON is quoteJSON of its text
	encodeMarshaler // its own MarshalJSON
)

// encodePlan is how one type is written.
type encodePlan struct {
	kind   encodeKind
	fields []encodeField // a struct's, in encoding/json's order
	elem   *encodePlan   // a pointer's, slice's or map's element
}

type encodeField struct {
	index []int
	key   string // `"name":`
	// omitEmpty and omitZero are the tag's options; zeroByMethod says
	// omitzero asks the type's IsZero.
	omitEmpty, omitZero, zeroByMethod bool
	plan                              *encodePlan
}

// builtinEncodePlans is made once, for every type reachable from the
// built-in kinds, and never changed after.
var builtinEncodePlans = sync.OnceValue(func() map[reflect.Type]*encodePlan {
	plans := map[reflect.Type]*encodePlan{}
	for _, info := range Builtin().All() {
		encodePlanFor(reflect.TypeOf(info.New()).Elem(), plans)
	}
	return plans
})

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	isZeroerType      = reflect.TypeFor[interface{ IsZero() bool }]()
)

func encodePlanFor(t reflect.Type, plans map[reflect.Type]*encodePlan) *encodePlan {
	if p, ok := plans[t]; ok {
		return p
	}
	p := &encodePlan{}
	plans[t] = p // before the fields: types can refer to themselves
	switch {
	case t == reflect.TypeFor[Time]():
		p.kind = encodeTime
		return p
	case t == reflect.TypeFor[MicroTime]():
		p.kind = encodeMicroTime
		return p
	case t == reflect.TypeFor[Quantity]():
		p.kind = encodeQuantity
		return p
	case t.Kind() == reflect.Pointer:
		p.kind, p.elem = encodePointer, encodePlanFor(t.Elem(), plans)
		return p
	case t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType):
		p.kind = encodeMarshaler
		return p
	case t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType):
		return p // unsupported
	}
	switch t.Kind() {
	case reflect.String:
		p.kind = encodeString
	case reflect.Bool:
		p.kind = encodeBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind = encodeInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.kind = encodeUint
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			pe := reflect.PointerTo(t.Elem())
			if !pe.Implements(marshalerType) && !pe.Implements(textMarshalerType) {
				p.kind = encodeBytes
			}
			return p
		}
		p.kind, p.elem = encodeSlice, encodePlanFor(t.Elem(), plans)
	case reflect.Map:
		kt := t.Key()
		if kt.Kind() != reflect.String {
			return p
		}
		p.kind, p.elem = encodeMap, encodePlanFor(t.Elem(), plans)
		if t == reflect.TypeFor[map[string]string]() {
			p.kind = encodeStringMap
		}
	case reflect.Struct:
		if !plainStruct(t, map[string]bool{}) {
			return p
		}
		p.kind = encodeStruct
		p.fields = appendEncodeFields(nil, t, nil, plans)
	}
	return p
}

// appendEncodeFields lists t's fields as encoding/json orders them: by
// their index paths, embedded structs without a name flattened in place.
// (plainStruct has ruled out names that clash.)
func appendEncodeFields(out []encodeField, t reflect.Type, path []int, plans map[reflect.Type]*encodePlan) []encodeField {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, ok := jsonTag(f)
		if !ok {
			continue
		}
		index := append(slices.Clip(path), i)
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = appendEncodeFields(out, f.Type, index, plans)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		ef := encodeField{index: index, key: string(quoteJSON(nil, name)) + ":", plan: encodePlanFor(f.Type, plans)}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				ef.omitEmpty = true
			case "omitzero":
				ef.omitZero = true
			}
		}
		if ef.omitZero {
			switch ft := f.Type; {
			case ft.Kind() == reflect.Interface:
				ef.plan = &encodePlan{} // unsupported
			case ft.Implements(isZeroerType) || reflect.PointerTo(ft).Implements(isZeroerType):
				ef.zeroByMethod = true
			}
		}
		out = append(out, ef)
	}
	return out
}

// append writes v (addressable) by plan p.
func (p *encodePlan) append(b []byte, v reflect.Value) ([]byte, bool) {
	switch p.kind {
	case encodeString:
		return quoteJSON(b, v.String()), true
	case encodeBool:
		return strconv.AppendBool(b, v.Bool()), true
	case encodeInt:
		return strconv.AppendInt(b, v.Int(), 10), true
	case encodeUint:
		return strconv.AppendUint(b, v.Uint(), 10), true
	case encodeTime:
		return appendTimeOrNull(b, v.Addr().Interface().(*Time).Time, time.RFC3339), true
	case encodeMicroTime:
		return appendTimeOrNull(b, v.Addr().Interface().(*MicroTime).Time, RFC3339Micro), true
	case encodeQuantity:
		// Quantity.MarshalJSON's bytes, which encoding/json's compactor
		// leaves as they are (quoteJSON escapes as it would).
		return quoteJSON(b, v.String()), true
	case encodePointer:
		if v.IsNil() {
			return append(b, "null"...), true
		}
		return p.elem.append(b, v.Elem())
	case encodeBytes:
		if v.IsNil() {
			return append(b, "null"...), true
		}
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, v.Bytes())
		return append(b, '"'), true
	case encodeSlice:
		if v.IsNil() {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = p.elem.append(b, v.Index(i)); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case encodeStringMap:
		if v.IsNil() {
			return append(b, "null"...), true
		}
		return appendStringMapJSON(b, v.Interface().(map[string]string)), true
	case encodeMap:
		return p.appendMap(b, v)
	case encodeStruct:
		return p.appendStruct(b, v)
	case encodeMarshaler:
		return appendMarshaled(b, v)
	}
	return b, false
}

func appendTimeOrNull(b []byte, t time.Time, layout string) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	return appendTimeJSON(b, t, layout)
}

func (p *encodePlan) appendStruct(b []byte, v reflect.Value) ([]byte, bool) {
	next := byte('{')
	for i := range p.fields {
		f := &p.fields[i]
		fv := v.Field(f.index[0])
		for _, j := range f.index[1:] {
			fv = fv.Field(j)
		}
		if (f.omitEmpty && emptyJSONValue(fv)) || (f.omitZero && f.zero(fv)) {
			continue
		}
		b = append(b, next)
		next = ','
		b = append(b, f.key...)
		var ok bool
		if b, ok = f.plan.append(b, fv); !ok {
			return b, false
		}
	}
	if next == '{' {
		return append(b, "{}"...), true
	}
	return append(b, '}'), true
}

// emptyJSONValue is encoding/json's test for omitempty.
func emptyJSONValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// zero is encoding/json's test for omitzero: the type's IsZero if it has
// one (a nil pointer is zero without asking), else the zero value.
func (f *encodeField) zero(v reflect.Value) bool {
	if !f.zeroByMethod {
		return v.IsZero()
	}
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return true
		}
		if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
			return z.IsZero()
		}
	}
	return v.Addr().Interface().(interface{ IsZero() bool }).IsZero()
}

// appendMap writes a map with string keys in ascending key order.
func (p *encodePlan) appendMap(b []byte, v reflect.Value) ([]byte, bool) {
	if v.IsNil() {
		return append(b, "null"...), true
	}
	if rl, ok := v.Interface().(ResourceList); ok {
		return appendStringMapJSON(b, rl), true // requests and limits
	}
	keys := make([]string, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		keys = append(keys, it.Key().String())
	}
	slices.Sort(keys)
	key := reflect.New(v.Type().Key()).Elem()
	elem := reflect.New(v.Type().Elem()).Elem()
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = quoteJSON(b, k)
		b = append(b, ':')
		key.SetString(k)
		elem.Set(v.MapIndex(key))
		var ok bool
		if b, ok = p.elem.append(b, elem); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// appendStringMapJSON writes a map of strings (labels, a ConfigMap's
// data) or of quantities (quoted as Quantity.MarshalJSON quotes them),
// its keys sorted on the stack.
func appendStringMapJSON[K, V ~string](b []byte, m map[K]V) []byte {
	var onStack [16]K
	keys := onStack[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = quoteJSON(b, string(k))
		b = append(b, ':')
		b = quoteJSON(b, string(m[k]))
	}
	return append(b, '}')
}

// appendMarshaled appends what v's MarshalJSON returns when encoding/json
// would write it unchanged: valid JSON that its compactor, which also
// escapes <, > and & and U+2028 and U+2029, leaves as it is. Printable
// ASCII without white space, <, > or & is that, once valid.
func appendMarshaled(b []byte, v reflect.Value) ([]byte, bool) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return append(b, "null"...), true
	}
	m, ok := v.Addr().Interface().(json.Marshaler)
	if !ok {
		return b, false
	}
	out, err := m.MarshalJSON()
	if err != nil || len(out) == 0 {
		return b, false
	}
	for _, c := range out {
		if c <= ' ' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			return b, false
		}
	}
	d := cleanDecoder{keyScanner{data: out}}
	if !d.valid(0) || d.i != len(out) {
		return b, false
	}
	return append(b, out...), true
}

// encodeBuffers holds the buffers objects are written into before their
// bytes are copied out at their size, as encoding/json does.
var encodeBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// encodeCleanCopy is encodeClean into a borrowed buffer, returned as a
// copy of its exact size.
func encodeCleanCopy(obj Object) ([]byte, bool) {
	buf := encodeBuffers.Get().(*[]byte)
	b, ok := encodeClean((*buf)[:0], obj)
	var out []byte
	if ok {
		out = bytes.Clone(b)
	}
	if cap(b) <= 1<<16 {
		*buf = b[:0]
		encodeBuffers.Put(buf)
	}
	return out, ok
}
