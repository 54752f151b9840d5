package api

// Skip on a first reading: a speed-up of the speed-up in codec_scan.go.
// DecodeStrict is complete without it: the scan says a body is clean, then
// json.Unmarshal decodes it.
//
// What it saves: json.Unmarshal reads every byte twice with its state
// machine (once to check the whole text is valid, once to decode), after
// the scan has read it once already. For a body the scan would call clean
// this decoder does the scan's checks and the decoding in one pass,
// setting the fields itself. A ConfigMap create's body decodes in about
// half of json.Unmarshal's time and a Pod's in about two fifths, with
// fewer allocations (BenchmarkDecodeStrictCreate, kubeloop against
// encoding-json, in codec_bench_test.go). Decode (fieldValidation
// Ignore) tries it first too, before the managedFields cut
// (codec_fields_decode.go): what etcd holds is clean, and a tracked pod
// decodes in about two thirds of the cut's time, 61 allocations instead
// of 72 (BenchmarkDecodeStored/pod-tracked, before and after).
//
// Why it gives json.Unmarshal's result: it runs only into a zero value,
// and gives up (false, the value zeroed again) at anything it is not sure
// of, leaving the body to the scan and json.Unmarshal as before: a key
// the scan would refuse, a number that is not a plain integer for an
// integer field or out of its range, a string with a surrogate escape or
// invalid UTF-8, a struct whose fields encoding/json might resolve
// differently (plainStruct). Values the scan takes whole (managedFields'
// sets, raw messages, Time, Quantity and the other types with their own
// UnmarshalJSON) are checked as the scan checks them, validated as JSON,
// then handed to their UnmarshalJSON (or json.Unmarshal) exactly as
// encoding/json would hand them. FuzzDecodeStrict holds the result to
// json.Unmarshal's.

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// cleanDecoder is the scan (its position, its tables, its tokenizer) with
// a value to fill.
type cleanDecoder struct {
	keyScanner
}

// maxCleanDepth bounds the nesting the decoder follows; deeper bodies are
// left to encoding/json, which has its own limit.
const maxCleanDepth = 1000

// decodeCleanInto is decodeClean for a pointer to a zero value; anything
// else is false, left to json.Unmarshal (which merges into what is there,
// or says why it cannot).
func decodeCleanInto(data []byte, into any) bool {
	p := reflect.ValueOf(into)
	return p.Kind() == reflect.Pointer && !p.IsNil() && p.Elem().IsZero() && decodeClean(data, p.Elem())
}

// decodeClean decodes data into v, which must be the zero value of its
// type and settable, when data is a clean body; false (v zero again)
// leaves it to the plain path.
func decodeClean(data []byte, v reflect.Value) bool {
	d := cleanDecoder{keyScanner{data: data, known: builtinScanTypes()}}
	d.ws()
	ok := d.peek() == '{' && d.value(v, 0)
	if ok {
		d.ws()
		ok = d.i == len(d.data)
	}
	if !ok {
		v.SetZero()
	}
	return ok
}

// value decodes the value at d.i into v.
func (d *cleanDecoder) value(v reflect.Value, depth int) bool {
	if depth > maxCleanDepth {
		return false
	}
	d.ws()
	t := v.Type()
	if d.peek() == 'n' {
		return d.null(v)
	}
	if t.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return d.value(v.Elem(), depth+1)
	}
	if t.Kind() == reflect.Interface || t == reflect.TypeFor[json.RawMessage]() || t == reflect.TypeFor[FieldsV1]() {
		return d.whole(v, depth)
	}
	st := d.typeInfo(t)
	if st.custom || st.shaped != nil || st.text {
		return d.whole(v, depth)
	}
	c := d.peek()
	switch t.Kind() {
	case reflect.Struct:
		return c == '{' && st.plain && d.object(v, st.fields, depth)
	case reflect.Map:
		return c == '{' && d.mapValue(v, depth)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return c == '"' && d.bytes(v)
		}
		return c == '[' && d.array(v, depth)
	case reflect.String:
		s, ok := d.str()
		if ok {
			v.SetString(s)
		}
		return ok
	case reflect.Bool:
		switch {
		case c == 't' && d.literal("true"):
			v.SetBool(true)
			return true
		case c == 'f' && d.literal("false"):
			return true
		}
		return false
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := d.integer()
		if !ok || v.OverflowInt(n) {
			return false
		}
		v.SetInt(n)
		return true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if c == '-' {
			return false // encoding/json's ParseUint refuses even -0
		}
		n, ok := d.integer()
		if !ok || v.OverflowUint(uint64(n)) {
			return false
		}
		v.SetUint(uint64(n))
		return true
	case reflect.Float32, reflect.Float64:
		lit, ok := d.number()
		if !ok {
			return false
		}
		f, err := strconv.ParseFloat(string(lit), t.Bits())
		if err != nil || v.OverflowFloat(f) {
			return false
		}
		v.SetFloat(f)
		return true
	}
	return false
}

// null reads a null as encoding/json does: a pointer or an interface
// becomes nil; a type with its own UnmarshalJSON is handed "null" (a raw
// message becomes the bytes null); a map or a slice becomes nil; anything
// else is left as it is.
func (d *cleanDecoder) null(v reflect.Value) bool {
	start := d.i
	if !d.literal("null") {
		return false
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		v.SetZero()
		return true
	}
	if u, ok := v.Addr().Interface().(json.Unmarshaler); ok {
		return u.UnmarshalJSON(d.data[start:d.i]) == nil
	}
	if k := v.Kind(); k == reflect.Map || k == reflect.Slice {
		v.SetZero()
	}
	return true
}

// whole takes a value the scan checks as a whole: the scan's own check
// (keyScanner.value: which kinds it accepts, its keys), then strict
// validation of the text, then the type's UnmarshalJSON, or
// json.Unmarshal for one without (an interface, a TextUnmarshaler).
func (d *cleanDecoder) whole(v reflect.Value, depth int) bool {
	start := d.i
	if !d.keyScanner.value(v.Type()) {
		return false
	}
	end := d.i
	d.i = start
	if !d.valid(depth) || d.i != end {
		return false
	}
	raw := d.data[start:end]
	if u, ok := v.Addr().Interface().(json.Unmarshaler); ok {
		return u.UnmarshalJSON(raw) == nil
	}
	return json.Unmarshal(raw, v.Addr().Interface()) == nil
}

// object decodes an object's members into the struct v, whose fields
// (from its scanType) every key must name exactly, once.
func (d *cleanDecoder) object(v reflect.Value, fields []scanField, depth int) bool {
	return d.members(func(key []byte) bool {
		f := findField(fields, key)
		if f == nil {
			return false
		}
		fv := v.Field(f.index[0])
		for _, i := range f.index[1:] {
			fv = fv.Field(i)
		}
		return d.value(fv, depth+1)
	})
}

// members reads an object's members, each key once, and calls member
// with each key once its ':' is read, to decode the value; false at
// anything else, or when member says so.
func (d *cleanDecoder) members(member func(key []byte) bool) bool {
	d.i++ // '{'
	var seen keySet
	d.ws()
	if d.peek() == '}' {
		d.i++
		return true
	}
	for {
		d.ws()
		key, ok := d.key()
		if !ok || !seen.add(key, &d.keyCompares) {
			return false
		}
		d.ws()
		if d.peek() != ':' {
			return false
		}
		d.i++
		if !member(key) {
			return false
		}
		if end, ok := d.next('}'); end || !ok {
			return ok
		}
	}
}

func findField(fields []scanField, key []byte) *scanField {
	for i := range fields {
		if fields[i].name == string(key) {
			return &fields[i]
		}
	}
	return nil
}

// mapValue decodes an object into the map v, made if nil (as encoding/json
// does, so {} is an empty map and not nil). Keys must be plain strings.
func (d *cleanDecoder) mapValue(v reflect.Value, depth int) bool {
	t := v.Type()
	kt := t.Key()
	if kt.Kind() != reflect.String || reflect.PointerTo(kt).Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) {
		return false
	}
	if v.IsNil() {
		v.Set(reflect.MakeMap(t))
	}
	// Labels, annotations and a ConfigMap's data are map[string]string:
	// set directly, without a reflect.Value per key and value.
	if strs, ok := v.Interface().(map[string]string); ok {
		return d.members(func(k []byte) bool {
			d.ws()
			s, ok := d.str()
			if ok {
				strs[string(k)] = s
			}
			return ok
		})
	}
	key, elem := reflect.New(kt).Elem(), reflect.New(t.Elem()).Elem()
	return d.members(func(k []byte) bool {
		elem.SetZero()
		if !d.value(elem, depth+1) {
			return false
		}
		key.SetString(string(k))
		v.SetMapIndex(key, elem)
		return true
	})
}

// array decodes an array into the slice v; [] is an empty slice, not nil,
// as with encoding/json.
func (d *cleanDecoder) array(v reflect.Value, depth int) bool {
	d.i++ // '['
	d.ws()
	if d.peek() == ']' {
		d.i++
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		return true
	}
	for i := 0; ; i++ {
		if i >= v.Cap() {
			v.Grow(1)
		}
		v.SetLen(i + 1)
		if !d.value(v.Index(i), depth+1) {
			return false
		}
		if end, ok := d.next(']'); end || !ok {
			return ok
		}
	}
}

// bytes decodes a base64 string into a []byte, as encoding/json does (an
// empty string is an empty slice, not nil).
func (d *cleanDecoder) bytes(v reflect.Value) bool {
	s, ok := d.str()
	if !ok {
		return false
	}
	b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(b, []byte(s))
	if err != nil {
		return false
	}
	v.SetBytes(b[:n])
	return true
}

// scanString passes over the string at d.i, checking it as encoding/json
// does (no control characters, only JSON's escapes); escaped says it has
// escapes to undo, high that it has bytes outside ASCII.
func (d *cleanDecoder) scanString() (raw []byte, escaped, high, ok bool) {
	if d.peek() != '"' {
		return nil, false, false, false
	}
	start := d.i + 1
	for j := start; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			d.i = j + 1
			return d.data[start:j], escaped, high, true
		case c == '\\':
			escaped = true
			if j+1 >= len(d.data) {
				return nil, false, false, false
			}
			switch d.data[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j++
			case 'u':
				if j+5 >= len(d.data) {
					return nil, false, false, false
				}
				if _, ok := hex4(d.data[j+2 : j+6]); !ok {
					return nil, false, false, false
				}
				j += 5
			default:
				return nil, false, false, false
			}
		case c < 0x20:
			return nil, false, false, false
		case c >= utf8.RuneSelf:
			high = true
		}
	}
	return nil, false, false, false
}

func hex4(b []byte) (rune, bool) {
	var r rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// key reads an object key: a valid string without escapes (an escaped key
// could spell a field in a way the exact comparison misses, as in the
// scan) and valid UTF-8 (encoding/json would replace what is not).
func (d *cleanDecoder) key() ([]byte, bool) {
	raw, escaped, high, ok := d.scanString()
	if !ok || escaped || (high && !utf8.Valid(raw)) {
		return nil, false
	}
	return raw, true
}

// str reads a string. A plain one is copied; escapes are undone here,
// except a \u escape of a UTF-16 surrogate, which, like invalid UTF-8, is
// left to encoding/json (it replaces what it cannot pair with U+FFFD).
func (d *cleanDecoder) str() (string, bool) {
	start := d.i
	raw, escaped, high, ok := d.scanString()
	switch {
	case !ok:
		return "", false
	case high && !utf8.Valid(raw):
		return unquoteByEncodingJSON(d.data[start:d.i])
	case !escaped:
		return string(raw), true
	}
	out := make([]byte, 0, len(raw))
	for k := 0; k < len(raw); k++ {
		c := raw[k]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		k++
		switch raw[k] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, _ := hex4(raw[k+1 : k+5])
			if r >= 0xd800 && r < 0xe000 {
				return unquoteByEncodingJSON(d.data[start:d.i])
			}
			out = utf8.AppendRune(out, r)
			k += 4
		default: // '"', '\\', '/'
			out = append(out, raw[k])
		}
	}
	return string(out), true
}

func unquoteByEncodingJSON(quoted []byte) (string, bool) {
	var s string
	return s, json.Unmarshal(quoted, &s) == nil
}

// number reads a number in JSON's grammar:
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *cleanDecoder) number() ([]byte, bool) {
	start := d.i
	if d.peek() == '-' {
		d.i++
	}
	switch c := d.peek(); {
	case c == '0':
		d.i++
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return nil, false
	}
	if d.peek() == '.' {
		d.i++
		if !d.digits() {
			return nil, false
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.i++
		if c := d.peek(); c == '+' || c == '-' {
			d.i++
		}
		if !d.digits() {
			return nil, false
		}
	}
	return d.data[start:d.i], true
}

func (d *cleanDecoder) digits() bool {
	start := d.i
	for d.i < len(d.data) && d.data[d.i] >= '0' && d.data[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}

// integer reads a number that is a plain integer in int64's range; a
// fraction or an exponent, which encoding/json refuses for an integer
// field, is false.
func (d *cleanDecoder) integer() (int64, bool) {
	lit, ok := d.number()
	if !ok {
		return 0, false
	}
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	var u uint64
	for _, c := range lit {
		if c < '0' || c > '9' || u > (math.MaxUint64-9)/10 {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return int64(-u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// valid passes over one value, checking it is JSON in every detail
// encoding/json checks (what json.Valid accepts).
func (d *cleanDecoder) valid(depth int) bool {
	if depth > maxCleanDepth {
		return false
	}
	d.ws()
	switch c := d.peek(); {
	case c == '{', c == '[':
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		d.i++
		d.ws()
		if d.peek() == closing {
			d.i++
			return true
		}
		for {
			if c == '{' {
				d.ws()
				if _, _, _, ok := d.scanString(); !ok {
					return false
				}
				d.ws()
				if d.peek() != ':' {
					return false
				}
				d.i++
			}
			if !d.valid(depth + 1) {
				return false
			}
			if end, ok := d.next(closing); end || !ok {
				return ok
			}
		}
	case c == '"':
		_, _, _, ok := d.scanString()
		return ok
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	}
	_, ok := d.number()
	return ok
}
