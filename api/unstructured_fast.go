package api

// Skip on a first reading: a speed-up. Unstructured's MarshalJSON and
// UnmarshalJSON (unstructured.go) are complete without it, and
// DecodeStrictUnstructured's token walk (unstructured_strict.go) is the
// plain path the docs cite.
//
// What it saves: a custom resource went through encoding/json's reflection
// on map[string]any both ways. Decoding, the stored value was first
// validated whole, split into raw members, each member decoded again
// through a json.Decoder with UseNumber and then walked to turn its
// numbers into int64 or float64; a request body was also walked token by
// token for duplicate fields. Encoding, the content was copied into a
// second map, which encoding/json sorted through reflect values, then
// compacted byte by byte. Creating a custom resource cost about twice a
// ConfigMap (BenchmarkCreateCustomResourceVsConfigMap in crdserving), and
// every watch event of one paid the decode again.
//
// Here the JSON is read once, by a small parser that builds the content as
// it goes, and the typed metadata by the one-pass decoder of
// codec_scan_decode.go; written once, keys sorted on the way. Anything it
// is not sure of gives up and the plain path runs, so errors and their
// messages are the plain path's: a duplicate key (strict decoding reports
// it, plain decoding keeps the last), metadata that is
// not plainly clean (an unknown or misspelled field), a number that does
// not fit, bad syntax. TestUnstructuredFastIsThePlainPath and
// FuzzUnstructuredFast hold the two to the same results.

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
)

// marshalFast writes u as MarshalJSON does; false leaves it to MarshalJSON.
func (u *Unstructured) marshalFast() ([]byte, bool) {
	keys := make([]string, 0, len(u.Content)+3)
	for k := range u.Content {
		switch k {
		case "apiVersion", "kind", "metadata":
			return nil, false // MarshalJSON's map lets the typed fields win
		}
		keys = append(keys, k)
	}
	if u.APIVersion != "" {
		keys = append(keys, "apiVersion")
	}
	if u.Kind != "" {
		keys = append(keys, "kind")
	}
	keys = append(keys, "metadata")
	slices.Sort(keys)
	metaPlan, ok := builtinEncodePlans()[reflect.TypeFor[ObjectMeta]()]
	if !ok {
		return nil, false
	}
	buf := encodeBuffers.Get().(*[]byte)
	defer func() {
		if cap(*buf) <= 1<<16 {
			encodeBuffers.Put(buf)
		}
	}()
	b := append((*buf)[:0], '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = quoteJSON(b, k)
		b = append(b, ':')
		switch k {
		case "apiVersion":
			b = quoteJSON(b, u.APIVersion)
		case "kind":
			b = quoteJSON(b, u.Kind)
		case "metadata":
			b, ok = metaPlan.append(b, reflect.ValueOf(&u.ObjectMeta).Elem())
		default:
			b, ok = appendJSONAny(b, u.Content[k], 0)
		}
		if !ok {
			*buf = b[:0]
			return nil, false
		}
	}
	b = append(b, '}')
	*buf = b[:0]
	return slices.Clone(b), true
}

// appendJSONAny writes an unstructured value as encoding/json does: map
// keys sorted, strings escaped by quoteJSON, floats by encoding/json
// itself. Any other type gives up.
func appendJSONAny(b []byte, v any, depth int) ([]byte, bool) {
	if depth > maxCleanDepth {
		return b, false
	}
	switch t := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, t), true
	case string:
		return quoteJSON(b, t), true
	case int64:
		return strconv.AppendInt(b, t, 10), true
	case float64:
		enc, err := json.Marshal(t)
		return append(b, enc...), err == nil
	case []any:
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendJSONAny(b, e, depth+1); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		var onStack [16]string
		keys := onStack[:0]
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = quoteJSON(b, k)
			b = append(b, ':')
			var ok bool
			if b, ok = appendJSONAny(b, t[k], depth+1); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// decodeFast reads data into u as UnmarshalJSON does; false (u untouched)
// leaves it to the plain path. A duplicate key anywhere gives up, so a
// success also means the body has none.
func (u *Unstructured) decodeFast(data []byte) bool {
	p := newAnyParser(data)
	p.ws()
	if !p.eat('{') {
		return false
	}
	out := Unstructured{Content: map[string]any{}}
	seenType, seenMeta := [2]bool{}, false
	for first := true; ; first = false {
		p.ws()
		if p.eat('}') {
			break
		}
		if !first && (!p.eat(',') || !p.wsThen()) {
			return false
		}
		key, ok := p.str()
		if !ok || !p.colon() {
			return false
		}
		switch key {
		case "apiVersion", "kind":
			i := 0
			if key == "kind" {
				i = 1
			}
			if seenType[i] {
				return false
			}
			seenType[i] = true
			s, ok := p.stringOrNull()
			if !ok {
				return false
			}
			if i == 0 {
				out.APIVersion = s
			} else {
				out.Kind = s
			}
		case "metadata":
			if seenMeta {
				return false
			}
			seenMeta = true
			start := p.i
			if !p.skip(0) {
				return false
			}
			raw := data[start:p.i]
			if string(raw) != "null" && !decodeCleanInto(raw, &out.ObjectMeta) {
				return false
			}
		default:
			if _, dup := out.Content[key]; dup {
				return false
			}
			v, ok := p.value(0)
			if !ok {
				return false
			}
			out.Content[key] = v
		}
	}
	p.ws()
	if p.i != len(data) {
		return false
	}
	*u = out
	return true
}

// anyParser reads JSON into the unstructured form (nil, bool, string,
// int64, float64, []any, map[string]any) with the one-pass decoder's
// scanner (codec_scan_decode.go: its strings, escapes and numbers). It
// answers false, not an error, at anything it does not read plainly.
type anyParser struct {
	cleanDecoder
}

func newAnyParser(data []byte) anyParser {
	return anyParser{cleanDecoder{keyScanner{data: data}}}
}

func (p *anyParser) eat(c byte) bool {
	if p.peek() == c {
		p.i++
		return true
	}
	return false
}

// wsThen skips white space and reports that something follows.
func (p *anyParser) wsThen() bool { p.ws(); return p.i < len(p.data) }

func (p *anyParser) colon() bool { p.ws(); ok := p.eat(':'); p.ws(); return ok }

func (p *anyParser) stringOrNull() (string, bool) {
	if p.literal("null") {
		return "", true
	}
	return p.str()
}

// value reads one value; the white space before it is already skipped.
func (p *anyParser) value(depth int) (any, bool) {
	if depth > maxCleanDepth || p.i >= len(p.data) {
		return nil, false
	}
	switch c := p.data[p.i]; {
	case c == '{':
		p.i++
		m := map[string]any{}
		for first := true; ; first = false {
			p.ws()
			if p.eat('}') {
				return m, true
			}
			if !first && (!p.eat(',') || !p.wsThen()) {
				return nil, false
			}
			k, ok := p.str()
			if !ok || !p.colon() {
				return nil, false
			}
			if _, dup := m[k]; dup {
				return nil, false
			}
			if m[k], ok = p.value(depth + 1); !ok {
				return nil, false
			}
		}
	case c == '[':
		p.i++
		l := []any{}
		for first := true; ; first = false {
			p.ws()
			if p.eat(']') {
				return l, true
			}
			if !first && (!p.eat(',') || !p.wsThen()) {
				return nil, false
			}
			v, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			l = append(l, v)
		}
	case c == '"':
		return p.str()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	raw, ok := p.number()
	if !ok {
		return nil, false
	}
	// An int64 when it is an integer that fits, else a float64, as
	// ConvertJSONNumbers makes it.
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil
}

// skip passes over one value without building it, checking its structure
// as value does: what follows reads it again (metadata, by the one-pass
// decoder, which checks the rest).
func (p *anyParser) skip(depth int) bool {
	if depth > maxCleanDepth || p.i >= len(p.data) {
		return false
	}
	switch c := p.data[p.i]; c {
	case '{', '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		p.i++
		for first := true; ; first = false {
			p.ws()
			if p.eat(end) {
				return true
			}
			if !first && (!p.eat(',') || !p.wsThen()) {
				return false
			}
			if c == '{' {
				if _, _, _, ok := p.scanString(); !ok || !p.colon() {
					return false
				}
			}
			if !p.skip(depth + 1) {
				return false
			}
		}
	case '"':
		_, _, _, ok := p.scanString()
		return ok
	}
	_, ok := p.value(depth)
	return ok
}
