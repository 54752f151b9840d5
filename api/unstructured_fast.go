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
// it, plain decoding keeps the last), a lone surrogate, metadata that is
// not plainly clean (an unknown or misspelled field), a number that does
// not fit, bad syntax. TestUnstructuredFastIsThePlainPath and
// FuzzUnstructuredFast hold the two to the same results.

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
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
	p := anyParser{data: data}
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
// int64, float64, []any, map[string]any). It answers false, not an error,
// at anything it does not read plainly.
type anyParser struct {
	data []byte
	i    int
}

func (p *anyParser) ws() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// wsThen skips white space and reports that something follows.
func (p *anyParser) wsThen() bool { p.ws(); return p.i < len(p.data) }

func (p *anyParser) eat(c byte) bool {
	if p.i < len(p.data) && p.data[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *anyParser) colon() bool { p.ws(); ok := p.eat(':'); p.ws(); return ok }

// str reads a string in valid UTF-8. Its escapes are read as
// encoding/json reads them; a lone surrogate (which it would replace by
// U+FFFD) or a control character gives up.
func (p *anyParser) str() (string, bool) {
	if !p.eat('"') {
		return "", false
	}
	start, ascii := p.i, true
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			s := p.data[start:p.i]
			p.i++
			if !ascii && !utf8.Valid(s) {
				return "", false
			}
			return string(s), true
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		p.i++
	}
	return "", false
}

// escaped finishes a string that started at start and has an escape at
// p.i.
func (p *anyParser) escaped(start int) (string, bool) {
	out := append([]byte(nil), p.data[start:p.i]...)
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			return string(out), utf8.Valid(out)
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.data) {
			return "", false
		}
		p.i += 2
		switch e := p.data[p.i-1]; e {
		case '"', '\\', '/':
			out = append(out, e)
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
			r, ok := p.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) {
				if !p.literal(`\u`) {
					return "", false
				}
				lo, ok := p.hex4()
				if r = utf16.DecodeRune(r, lo); !ok || r == utf8.RuneError {
					return "", false
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", false
		}
	}
	return "", false
}

// hex4 reads the four hex digits of a \u escape.
func (p *anyParser) hex4() (rune, bool) {
	if len(p.data)-p.i < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.data[p.i:p.i+4]), 16, 32)
	p.i += 4
	return rune(n), err == nil
}

func (p *anyParser) stringOrNull() (string, bool) {
	if p.literal("null") {
		return "", true
	}
	return p.str()
}

func (p *anyParser) literal(lit string) bool {
	if len(p.data)-p.i >= len(lit) && string(p.data[p.i:p.i+len(lit)]) == lit {
		p.i += len(lit)
		return true
	}
	return false
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
	return p.number()
}

// number reads a number in JSON's grammar: an int64 when it is an integer
// that fits, else a float64 (as ConvertJSONNumbers does).
func (p *anyParser) number() (any, bool) {
	start := p.i
	p.eat('-')
	switch {
	case p.eat('0'):
	case p.digits():
	default:
		return nil, false
	}
	integer := true
	if p.eat('.') {
		integer = false
		if !p.digits() {
			return nil, false
		}
	}
	if p.eat('e') || p.eat('E') {
		integer = false
		if !p.eat('+') {
			p.eat('-')
		}
		if !p.digits() {
			return nil, false
		}
	}
	s := string(p.data[start:p.i])
	if integer {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, true
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// digits reads one or more decimal digits.
func (p *anyParser) digits() bool {
	start := p.i
	for p.i < len(p.data) && p.data[p.i] >= '0' && p.data[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// skip passes over one value without building it: its strings may have
// any escape, and only its structure is checked, for what follows reads
// it again (metadata, by the one-pass decoder, which checks the rest).
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
			if c == '{' && (!p.skipString() || !p.colon()) {
				return false
			}
			if !p.skip(depth + 1) {
				return false
			}
		}
	case '"':
		return p.skipString()
	}
	_, ok := p.value(depth)
	return ok
}

// skipString passes over a string, escapes and all.
func (p *anyParser) skipString() bool {
	if !p.eat('"') {
		return false
	}
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case '"':
			p.i++
			return true
		case '\\':
			p.i++
		}
		p.i++
	}
	return false
}
