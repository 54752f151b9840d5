package sharing

// Skip on a first reading: see doc.go. A Delta holds an older version of an
// object as the fields in which it differs from a newer one; the watch
// cache keeps the versions its ring has seen superseded that way
// (watchcache/superseded.go says what that saves).

import (
	"reflect"
	"unsafe"
)

// Delta is an older version of an object held as what it has that a newer
// version of it does not: for each field where the two are not the same
// value, the older one's. Apply builds the older version again from the
// newer one. A Delta is immutable; Apply may be called concurrently.
type Delta struct {
	leaves *typeLeaves
	parts  []deltaPart
}

// deltaPart is one field of the older version: leaf indexes the type's
// leaves, value is that field's value in the older version.
type deltaPart struct {
	leaf  int
	value any
}

// typeLeaves are the fields of a struct type that a Delta compares one by
// one: its fields and those of the structs inlined in it, down to the
// fields that are not inlined structs (or are structs compared whole, as
// time.Time), each by its offset in the type.
type typeLeaves struct {
	typ    reflect.Type
	leaves []leafField
}

type leafField struct {
	offset uintptr
	typ    reflect.Type
}

// at is the leaf's field in the struct at base.
func (l leafField) at(base unsafe.Pointer) reflect.Value {
	return reflect.NewAt(l.typ, unsafe.Add(base, l.offset)).Elem()
}

// Diff returns older as a Delta against newer, or nil when they are not
// pointers to values of the same struct type. A field counts as the same
// when both hold the same value by identity: equal scalars and strings,
// the same pointer, map, or slice (start and length); Share run first
// makes most equal parts the same. Both objects are only read, and the
// Delta keeps no reference to older itself, only to the parts it differs
// in.
func (s *Sharer) Diff(older, newer any) *Delta {
	o, n := reflect.ValueOf(older), reflect.ValueOf(newer)
	if !o.IsValid() || !n.IsValid() || o.Type() != n.Type() || o.Kind() != reflect.Pointer ||
		o.IsNil() || n.IsNil() || o.Type().Elem().Kind() != reflect.Struct {
		return nil
	}
	if s.opaque == nil {
		s.opaque = map[reflect.Type]bool{}
	}
	if s.isOpaque(o.Type().Elem()) {
		return nil // an unexported field could not be read or set
	}
	leaves := s.leavesOf(o.Type().Elem())
	ob, nb := o.UnsafePointer(), n.UnsafePointer()
	// The differing leaves first, so that the parts are allocated at
	// their length: a Delta is kept for as long as its version is.
	var differBuf [32]int
	differ := differBuf[:0]
	for i, l := range leaves.leaves {
		if !sameField(l, ob, nb) {
			differ = append(differ, i)
		}
	}
	d := &Delta{leaves: leaves, parts: make([]deltaPart, len(differ))}
	for j, i := range differ {
		d.parts[j] = deltaPart{leaf: i, value: leaves.leaves[i].at(ob).Interface()}
	}
	return d
}

// Apply returns a new object deeply equal to the older version Diff was
// given, built from newer: a pointer to the same type, deeply equal to
// the newer version Diff was given. The result shares every part with
// newer or with the older version; like them, it must not be changed.
func (d *Delta) Apply(newer any) any {
	out := reflect.New(d.leaves.typ)
	out.Elem().Set(reflect.ValueOf(newer).Elem())
	base := out.UnsafePointer()
	for _, p := range d.parts {
		f := d.leaves.leaves[p.leaf].at(base)
		if p.value == nil {
			f.SetZero() // a nil interface
			continue
		}
		f.Set(reflect.ValueOf(p.value))
	}
	return out.Interface()
}

// Len is the number of fields in which the two versions differ.
func (d *Delta) Len() int { return len(d.parts) }

// leavesOf returns (and remembers) t's leaves.
func (s *Sharer) leavesOf(t reflect.Type) *typeLeaves {
	if l, ok := s.leaves[t]; ok {
		return l
	}
	if s.leaves == nil {
		s.leaves = map[reflect.Type]*typeLeaves{}
	}
	l := &typeLeaves{typ: t}
	var walk func(t reflect.Type, offset uintptr)
	walk = func(t reflect.Type, offset uintptr) {
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Type.Kind() == reflect.Struct && !s.isOpaque(f.Type) {
				walk(f.Type, offset+f.Offset)
				continue
			}
			l.leaves = append(l.leaves, leafField{offset: offset + f.Offset, typ: f.Type})
		}
	}
	walk(t, 0)
	s.leaves[t] = l
	return l
}

// sameField reports whether the leaf holds the same value by identity in
// the structs at a and b: the same bytes, which is the same string data
// and length, the same pointer, map, interface value, or slice start,
// length and capacity, and equal scalars and structs compared whole (a
// time.Time). The same bytes are the same value, so deeply equal; equal
// values in different bytes (two copies of a string, padding) only cost a
// part.
func sameField(l leafField, a, b unsafe.Pointer) bool {
	size := l.typ.Size()
	return string(unsafe.Slice((*byte)(unsafe.Add(a, l.offset)), size)) ==
		string(unsafe.Slice((*byte)(unsafe.Add(b, l.offset)), size))
}
