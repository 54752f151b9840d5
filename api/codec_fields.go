package api

// Skip on a first reading: a speed-up. Encode is complete without it:
// json.Marshal of the object is the plain path the docs cite.
//
// What it saves: FieldsV1 is kept as the raw bytes it was written as, but
// encoding/json does not trust what a MarshalJSON returns: it checks and
// compacts those bytes with its byte-at-a-time scanner, and on a tracked
// pod managedFields are more than half the object (about 1,900 of 3,400
// bytes in BenchmarkCreateUpdateManagedFields), which every tracked write
// encodes five times (the cached copy and the update for etcd, the
// answers). Here the object is marshalled with a one-byte stand-in for
// each FieldsV1 and the raw sets are put in its place afterwards, after a
// check of our own that they are already what the scanner would let
// through unchanged: compact objects of objects with plain string keys.
// Anything else takes the plain path. On that benchmark's pod an encode
// takes about half the time (BenchmarkEncodeManagedFields against
// BenchmarkEncodeManagedFieldsPlain, codec_fields_test.go);
// TestMarshalSplicedIsJSONMarshal holds the two paths to the same bytes.
// The check reads every byte of every set on each encode and each stored
// decode (seven times per pod in that benchmark), so its key loop looks
// bytes up in a table, four at a time: BenchmarkPlainFieldsJSON 1.6 → 0.8
// µs for that pod's set; FuzzPlainFieldsJSON holds it to encoding/json.
//
// Since session 8 Marshal first tries the table encoder (codec_encode.go),
// which copies the sets after the same check; the splicing here writes
// what that encoder gives up on.
//
// Decoding has its own cut (codec_fields_decode.go): a first one that
// scanned the whole document to find the sets did not pay; that one reads
// only up to the managedFields member.

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// Marshal is json.Marshal(v), byte for byte, with the FieldsV1 of an
// object's managedFields copied instead of scanned.
func Marshal(v any) ([]byte, error) {
	if u, ok := v.(*Unstructured); ok {
		if b, ok := u.marshalFast(); ok { // unstructured_fast.go
			return b, nil
		}
	}
	if obj, ok := v.(Object); ok {
		if b, ok := encodeCleanCopy(obj); ok { // codec_encode.go
			return b, nil
		}
		if b, ok := marshalSplicingFields(obj); ok {
			return b, nil
		}
	}
	return json.Marshal(v)
}

// fieldsStandIn is what a FieldsV1 marshals as while the object is
// written; `"fieldsV1":0` then marks each place a raw set goes.
var fieldsStandIn = &FieldsV1{Raw: []byte("0")}

// marshalSplicingFields writes obj with its managedFields' raw sets
// spliced in; false when the fast path does not apply (no sets, a kind
// not laid out as TypeMeta then ObjectMeta, a set not plainly compact).
//
// Why the marks are found by a plain search: the object's JSON starts
// with kind, apiVersion and metadata, and every field of ObjectMeta
// before managedFields (its last) is strings, numbers, booleans or maps
// and lists of them; encoding/json escapes every '"' inside a string, so
// `"managedFields":[` first appears where the list starts, and inside the
// entries (strings, a time and the stand-in) `"fieldsV1":0` appears only
// where an entry's set is.
func marshalSplicingFields(obj Object) ([]byte, bool) {
	entries := obj.GetObjectMeta().ManagedFields
	sets, size := 0, 0
	for i := range entries {
		f := entries[i].FieldsV1
		if f == nil || f.Raw == nil {
			continue
		}
		if !plainFieldsJSON(f.Raw) {
			return nil, false
		}
		sets++
		size += len(f.Raw)
	}
	if sets == 0 || !metadataFirst(reflect.TypeOf(obj)) {
		return nil, false
	}
	// A shallow copy whose managedFields hold the stand-in: obj may be
	// shared (a watch cache's) and is never written. The copy and the
	// buffer the stand-in form is written to are borrowed, and given back
	// emptied.
	copies := shallowCopies(reflect.TypeOf(obj))
	cp := copies.Get().(Object)
	defer func() {
		reflect.ValueOf(cp).Elem().SetZero()
		copies.Put(cp)
	}()
	reflect.ValueOf(cp).Elem().Set(reflect.ValueOf(obj).Elem())
	standIn := make([]ManagedFieldsEntry, len(entries))
	copy(standIn, entries)
	for i := range standIn {
		if f := standIn[i].FieldsV1; f != nil && f.Raw != nil {
			standIn[i].FieldsV1 = fieldsStandIn
		}
	}
	cp.GetObjectMeta().ManagedFields = standIn
	buf := marshalBuffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 1<<16 {
			buf.Reset()
			marshalBuffers.Put(buf)
		}
	}()
	if err := json.NewEncoder(buf).Encode(cp); err != nil {
		return nil, false // the plain path gives the error
	}
	out := bytes.TrimSuffix(buf.Bytes(), []byte("\n")) // Encode ends with a newline
	at := bytes.Index(out, []byte(`"managedFields":[`))
	if at < 0 {
		return nil, false
	}
	const mark = `"fieldsV1":0`
	res := make([]byte, 0, len(out)+size)
	for i := range entries {
		f := entries[i].FieldsV1
		if f == nil || f.Raw == nil {
			continue
		}
		n := bytes.Index(out[at:], []byte(mark))
		if n < 0 {
			return nil, false
		}
		end := at + n + len(mark) // just after the stand-in
		res = append(res, out[:end-1]...)
		res = append(res, f.Raw...)
		out, at = out[end:], 0
	}
	return append(res, out...), true
}

// marshalBuffers are the buffers marshalSplicingFields writes the
// stand-in form to.
var marshalBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// shallowCopies is, per kind, a pool of empty objects to copy into.
func shallowCopies(t reflect.Type) *sync.Pool {
	if p, ok := copyPools.Load(t); ok {
		return p.(*sync.Pool)
	}
	p, _ := copyPools.LoadOrStore(t, &sync.Pool{New: func() any { return reflect.New(t.Elem()).Interface() }})
	return p.(*sync.Pool)
}

// copyPools holds shallowCopies' pools by type.
var copyPools sync.Map // reflect.Type → *sync.Pool

// metadataFirst reports whether a kind's Go type is a struct that starts
// with TypeMeta inline and then ObjectMeta as metadata, remembered per
// type.
func metadataFirst(t reflect.Type) bool {
	if ok, found := metadataFirstByType.Load(t); found {
		return ok.(bool)
	}
	ok := t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct && t.Elem().NumField() >= 2
	if ok {
		s := t.Elem()
		tm, om := s.Field(0), s.Field(1)
		name, _, _ := strings.Cut(om.Tag.Get("json"), ",")
		ok = tm.Anonymous && tm.Type == reflect.TypeFor[TypeMeta]() && (tm.Tag.Get("json") == ",inline" || tm.Tag.Get("json") == "") &&
			om.Type == reflect.TypeFor[ObjectMeta]() && name == "metadata" &&
			!t.Implements(reflect.TypeFor[json.Marshaler]()) && !s.Implements(reflect.TypeFor[json.Marshaler]())
	}
	metadataFirstByType.Store(t, ok)
	return ok
}

// metadataFirstByType caches metadataFirst; types never change while a
// process runs.
var metadataFirstByType sync.Map // reflect.Type → bool

// plainFieldsJSON reports whether b is a FieldsV1 set exactly as
// encoding/json would write it back: an object whose members are objects,
// down to {}, with no white space, keys of printable ASCII and the escapes
// \" and \\ only, and none of the characters json.Marshal escapes for
// HTML (<, >, &). Everything Kubernetes' field paths produce from ASCII
// names and keys passes; anything else is left to encoding/json.
func plainFieldsJSON(b []byte) bool { return plainFieldsLen(b) == len(b) }

// keyByte is, for each byte, whether it stands for itself in a plain key:
// printable ASCII but the quote and the backslash (an escape starts there)
// and <, >, & (which json.Marshal escapes). A table, because most of a set's
// bytes are its keys' and this loop reads each one on every encode.
var keyByte = func() (plain [256]bool) {
	for c := 0x20; c <= 0x7e; c++ {
		plain[c] = true
	}
	for _, c := range `"\<>&` {
		plain[c] = false
	}
	return plain
}()

// plainFieldsLen is the length of the plain FieldsV1 object b starts
// with, -1 if it does not start with one.
func plainFieldsLen(b []byte) int {
	depth, i := 0, 0
	for {
		// at the start of an object
		if i >= len(b) || b[i] != '{' {
			return -1
		}
		i++
		depth++
		if i < len(b) && b[i] == '}' {
			i++
			depth--
			// after a value: a comma and the next member, or the end of
			// the enclosing objects
			for {
				if depth == 0 {
					return i
				}
				if i >= len(b) {
					return -1
				}
				if b[i] == ',' {
					i++
					break
				}
				if b[i] != '}' {
					return -1
				}
				i++
				depth--
			}
		}
		// a member: "key":{...}
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		i++
		for {
			for i+4 <= len(b) && keyByte[b[i]] && keyByte[b[i+1]] && keyByte[b[i+2]] && keyByte[b[i+3]] {
				i += 4
			}
			for i < len(b) && keyByte[b[i]] {
				i++
			}
			if i >= len(b) {
				return -1
			}
			if b[i] == '"' {
				break
			}
			if b[i] != '\\' || i+1 >= len(b) || (b[i+1] != '"' && b[i+1] != '\\') {
				return -1
			}
			i += 2
		}
		i++ // the closing quote
		if i >= len(b) || b[i] != ':' {
			return -1
		}
		i++
	}
}
