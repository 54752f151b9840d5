package sharing

// Skip on a first reading: see doc.go.

import (
	"bytes"
	"reflect"
	"unsafe"
)

// Sharer shares parts between objects. It remembers which struct types it
// compares whole, and the fields Diff compares. It is not safe for concurrent use; the zero value is
// ready.
type Sharer struct {
	opaque map[reflect.Type]bool
	// leaves are the fields Diff compares, per type (delta.go).
	leaves map[reflect.Type]*typeLeaves
}

// Share makes obj share with older every part that is equal in both. Both
// must be pointers to the same type; anything else is left alone. obj must
// not be visible to anyone else yet; older is only read. Share obj once:
// afterwards its equal parts are older's, and a second Share with another
// object would write into them (session 8 found that as a data race).
func (s *Sharer) Share(obj, older any) {
	dst, src := reflect.ValueOf(obj), reflect.ValueOf(older)
	if !dst.IsValid() || !src.IsValid() || dst.Type() != src.Type() || dst.Kind() != reflect.Pointer ||
		dst.IsNil() || src.IsNil() || dst.Pointer() == src.Pointer() {
		return
	}
	if s.opaque == nil {
		s.opaque = map[reflect.Type]bool{}
	}
	s.shareEqual(dst.Elem(), src.Elem())
}

// shareEqual reports whether dst equals src (as reflect.DeepEqual would
// say), and on the way replaces each pointer, slice, map and string of
// dst that equals src's by src's. dst must be settable.
func (s *Sharer) shareEqual(dst, src reflect.Value) bool {
	switch dst.Kind() {
	case reflect.Struct:
		if s.isOpaque(dst.Type()) {
			// time.Time, api.Quantity: compared whole, not taken apart.
			return reflect.DeepEqual(dst.Interface(), src.Interface())
		}
		eq := true
		for i := range dst.NumField() {
			if !s.shareEqual(dst.Field(i), src.Field(i)) {
				eq = false
			}
		}
		return eq
	case reflect.Pointer:
		if dst.IsNil() || src.IsNil() {
			return dst.IsNil() == src.IsNil()
		}
		if dst.Pointer() == src.Pointer() {
			return true
		}
		if s.shareEqual(dst.Elem(), src.Elem()) {
			dst.Set(src)
			return true
		}
		return false
	case reflect.Slice:
		if dst.IsNil() != src.IsNil() {
			return false
		}
		if dst.Len() == src.Len() && (dst.Len() == 0 || dst.Pointer() == src.Pointer()) {
			return true
		}
		if dst.Type().Elem().Kind() == reflect.Uint8 {
			// Raw bytes (managedFields' sets): compared whole.
			if !bytes.Equal(dst.Bytes(), src.Bytes()) {
				return false
			}
			dst.Set(src)
			return true
		}
		// Elements are compared by position, also when one slice is
		// longer: a new writer's managedFields entry is appended.
		eq := dst.Len() == src.Len()
		for i := range min(dst.Len(), src.Len()) {
			if !s.shareEqual(dst.Index(i), src.Index(i)) {
				eq = false
			}
		}
		if eq {
			dst.Set(src)
		}
		return eq
	case reflect.Map:
		if dst.IsNil() != src.IsNil() || dst.Len() != src.Len() {
			return false
		}
		if dst.Len() == 0 || dst.Pointer() == src.Pointer() {
			return true
		}
		if eq, ok := equalMaps(dst, src); ok { // json_equal.go
			if eq {
				dst.Set(src)
			}
			return eq
		}
		if reflect.DeepEqual(dst.Interface(), src.Interface()) {
			dst.Set(src)
			return true
		}
		return false
	case reflect.String:
		a, b := dst.String(), src.String()
		if a != b {
			return false
		}
		if len(a) > 0 && unsafe.StringData(a) != unsafe.StringData(b) {
			dst.SetString(b)
		}
		return true
	case reflect.Interface:
		return reflect.DeepEqual(dst.Interface(), src.Interface())
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return false // not in API objects; never shared
	default: // booleans and numbers
		return dst.Equal(src)
	}
}

// isOpaque reports whether a struct type has a field shareEqual cannot
// set, so that it is compared whole.
func (s *Sharer) isOpaque(t reflect.Type) bool {
	opaque, ok := s.opaque[t]
	if !ok {
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				opaque = true
			}
		}
		s.opaque[t] = opaque
	}
	return opaque
}
