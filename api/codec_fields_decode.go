package api

// Skip on a first reading: a speed-up. Decode is complete without it:
// json.Unmarshal of the object is the plain path the docs cite.
//
// What it saves: encoding/json reads a document twice, a validating scan
// of all of it and then the decode, each a byte-at-a-time state machine;
// managedFields' sets are long strings of quoted keys (about 1,900 of the
// 3,400 bytes of BenchmarkCreateUpdateManagedFields' pod), so on a tracked
// object most of both passes goes to them, and every watch cache decodes
// every object written. Here the managedFields member is read by hand
// (canonical entries only: plain strings, a time, a plain compact set)
// and cut out of the document, json.Unmarshal reads the rest, and the
// entries are put back. In a profile of that benchmark the watch caches'
// decodes were the largest part of what tracking adds;
// BenchmarkDecodeManagedFields against BenchmarkDecodeManagedFieldsPlain
// (codec_fields_decode_test.go) measure one decode: about 0.6 of the time
// on a pod with two entries.
//
// Why the result is json.Unmarshal's: the document is read member by
// member up to the managedFields of the top-level metadata (a tokenizer
// that agrees with JSON's on strings and nesting, so the cut is a whole
// member and the rest is valid exactly when the whole was); any key that
// encoding/json would match to metadata or managedFields only by folding
// case, a key with an escape, or anything but the canonical form inside
// the list gives up. A second managedFields further on (a repeated
// metadata, a repeated key) would win in encoding/json: the cut leaves a
// marker in its place, a slice json.Unmarshal replaces if it meets one,
// and then the plain path runs. So does any error, to give its message.
// TestDecodeCutIsJSONUnmarshal and FuzzDecodeCut hold the two together.

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sync"
)

// decodeCuttingFields decodes data into into with managedFields read by
// hand; false when it does not apply or is not sure, with into as it was.
func decodeCuttingFields(data []byte, into Object) bool {
	t := reflect.TypeOf(into)
	if !cutsFields(t) {
		return false
	}
	if reflect.ValueOf(into).IsNil() {
		return false // json.Unmarshal says why
	}
	v := reflect.ValueOf(into).Elem()
	if !v.IsZero() {
		return false // json.Unmarshal merges into what is there
	}
	start, end, ok := managedFieldsMember(data)
	if !ok {
		return false
	}
	entries, ok := parseEntries(data[start:end])
	if !ok {
		return false
	}
	cut := make([]byte, 0, len(data)-(end-start))
	cut = append(append(cut, data[:start]...), data[end:]...)
	meta := into.GetObjectMeta()
	// The marker is entries with no length: json.Unmarshal sets another
	// slice (nil for null, a new one for []) or a length if it meets
	// another managedFields.
	meta.ManagedFields = entries[:0:1]
	err := json.Unmarshal(cut, into)
	mf := meta.ManagedFields
	if err != nil || len(mf) != 0 || cap(mf) != 1 || &mf[:1][0] != &entries[0] {
		v.SetZero()
		return false
	}
	into.GetObjectMeta().ManagedFields = entries
	return true
}

// cutsFields reports whether a kind's Go type has its metadata where the
// cut looks for it and decodes field by field, remembered per type.
func cutsFields(t reflect.Type) bool {
	if ok, found := cutsFieldsByType.Load(t); found {
		return ok.(bool)
	}
	unmarshaler := reflect.TypeFor[json.Unmarshaler]()
	ok := metadataFirst(t) && !t.Implements(unmarshaler) && !t.Elem().Implements(unmarshaler)
	cutsFieldsByType.Store(t, ok)
	return ok
}

var cutsFieldsByType sync.Map // reflect.Type → bool

// managedFieldsMember finds the managedFields member of the top-level
// metadata: data[start:end] is the member with one comma beside it, so
// that cutting it leaves valid JSON. false: no such member, or a key the
// cut cannot be sure of.
func managedFieldsMember(data []byte) (start, end int, ok bool) {
	s := &cutScanner{keyScanner: keyScanner{data: data}}
	if !s.open('{') {
		return 0, 0, false
	}
	if !s.findMember("metadata") || !s.open('{') {
		return 0, 0, false
	}
	if !s.findMember("managedFields") {
		return 0, 0, false
	}
	// s.i is at the value; s.keyAt where its key starts, s.prevEnd after
	// the previous member's value (or after '{' for the first).
	keyAt, prevEnd, first := s.keyAt, s.prevEnd, s.first
	if !s.skipRaw() {
		return 0, 0, false
	}
	valueEnd := s.i
	s.ws()
	if s.i >= len(data) {
		return 0, 0, false
	}
	switch {
	case !first:
		return prevEnd, valueEnd, true // `,"managedFields":[...]`
	case data[s.i] == ',':
		// `"managedFields":[...],` unless nothing follows the comma:
		// `{M,}` is invalid and `{}` would not be.
		comma := s.i
		s.i++
		s.ws()
		if s.i >= len(data) || data[s.i] == '}' {
			return 0, 0, false
		}
		return keyAt, comma + 1, true
	case data[s.i] == '}':
		return keyAt, valueEnd, true
	}
	return 0, 0, false
}

// cutScanner walks JSON just far enough to find a member, with
// keyScanner's tokenizer (codec_scan.go): ws, key and skipRaw.
type cutScanner struct {
	keyScanner
	// Where the member found last starts, where the value before it
	// ended, and whether it is its object's first.
	keyAt, prevEnd int
	first          bool
}

// open reads c after white space.
func (s *cutScanner) open(c byte) bool {
	s.ws()
	if s.peek() == c {
		s.i++
		return true
	}
	return false
}

// findMember reads the members of the object just opened until the one
// named name and stops at its value. false: not there, a key with an
// escape, or one equal to name only when case is folded (encoding/json
// would take it).
func (s *cutScanner) findMember(name string) bool {
	s.prevEnd, s.first = s.i, true
	for {
		s.ws()
		s.keyAt = s.i
		key, ok := s.key()
		if !ok || !s.open(':') {
			return false
		}
		switch {
		case string(key) == name:
			s.ws()
			return true
		case bytes.EqualFold(key, []byte(name)):
			return false
		}
		if !s.skipRaw() {
			return false
		}
		s.prevEnd = s.i
		s.first = false
		if !s.open(',') {
			return false
		}
	}
}

// parseEntries reads `"managedFields":[...]` (with the comma the cut
// takes, before or after) written as api.Marshal writes it: each entry an
// object of the known members at most once, strings of printable ASCII
// without escapes, a time as Time reads it, sets that are plain compact
// FieldsV1. Anything else is false.
func parseEntries(member []byte) ([]ManagedFieldsEntry, bool) {
	member = bytes.TrimPrefix(member, []byte(","))
	member = bytes.TrimSuffix(member, []byte(","))
	list, ok := bytes.CutPrefix(member, []byte(`"managedFields":[`))
	if !ok || len(list) < 2 || list[len(list)-1] != ']' {
		return nil, false
	}
	list = list[:len(list)-1]
	// Every canonical entry has a fieldsType, and a set's keys never
	// spell this: a good guess of how many entries there are.
	entries := make([]ManagedFieldsEntry, 0, max(1, bytes.Count(list, []byte(`"fieldsType":`))))
	sets := 0
	p := &entryParser{b: list}
	for {
		var e ManagedFieldsEntry
		size, ok := p.entry(&e)
		if !ok {
			return nil, false
		}
		sets += size
		entries = append(entries, e)
		if p.i == len(list) {
			break
		}
		if list[p.i] != ',' {
			return nil, false
		}
		p.i++
	}
	// One copy holds every set, each capped so that an append to one
	// cannot write into the next (FieldsV1.UnmarshalJSON appends).
	raw := make([]byte, 0, sets)
	for i := range entries {
		if f := entries[i].FieldsV1; f != nil {
			at := len(raw)
			raw = append(raw, f.Raw...)
			f.Raw = raw[at:len(raw):len(raw)]
		}
	}
	return entries, true
}

// entryParser reads the entries of a managedFields list.
type entryParser struct {
	b []byte
	i int
}

// entry reads one `{...}` into e; size is the length of its set, whose
// Raw still points into the document.
func (p *entryParser) entry(e *ManagedFieldsEntry) (size int, ok bool) {
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return 0, false
	}
	p.i++
	var seen [7]bool
	for first := true; ; first = false {
		if p.i < len(p.b) && p.b[p.i] == '}' && first {
			break // {} is an entry of empty fields
		}
		key, ok := p.plain()
		if !ok || p.i >= len(p.b) || p.b[p.i] != ':' {
			return 0, false
		}
		p.i++
		field := -1
		switch string(key) {
		case "manager":
			field = 0
		case "operation":
			field = 1
		case "apiVersion":
			field = 2
		case "time":
			field = 3
		case "fieldsType":
			field = 4
		case "fieldsV1":
			field = 5
		case "subresource":
			field = 6
		}
		if field < 0 || seen[field] {
			return 0, false
		}
		seen[field] = true
		switch field {
		case 3:
			from := p.i
			if _, ok := p.str(); !ok {
				return 0, false
			}
			t := new(Time)
			if t.UnmarshalJSON(p.b[from:p.i]) != nil {
				return 0, false
			}
			e.Time = t
		case 5:
			n := plainFieldsLen(p.b[p.i:])
			if n < 0 {
				return 0, false
			}
			e.FieldsV1 = &FieldsV1{Raw: p.b[p.i : p.i+n]}
			p.i += n
			size = n
		default:
			v, ok := p.str()
			if !ok {
				return 0, false
			}
			switch field {
			case 0:
				e.Manager = v
			case 1:
				e.Operation = ManagedFieldsOperationType(v)
			case 2:
				e.APIVersion = v
			case 4:
				e.FieldsType = v
			case 6:
				e.Subresource = v
			}
		}
		if p.i >= len(p.b) {
			return 0, false
		}
		if p.b[p.i] == '}' {
			break
		}
		if p.b[p.i] != ',' {
			return 0, false
		}
		p.i++
	}
	p.i++ // the closing brace
	return size, true
}

// str reads a string of printable ASCII without escapes, what
// encoding/json decodes to the same bytes.
func (p *entryParser) str() (string, bool) {
	b, ok := p.plain()
	return string(b), ok
}

// plain is str's content, not copied.
func (p *entryParser) plain() ([]byte, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false
	}
	from := p.i + 1
	for i := from; i < len(p.b); i++ {
		switch c := p.b[i]; {
		case c == '"':
			p.i = i + 1
			return p.b[from:i], true
		case c < 0x20 || c > 0x7e || c == '\\':
			return nil, false
		}
	}
	return nil, false
}
