package sharing

// Skip on a first reading: see doc.go. A Delta holds an older version of an
// object as the fields in which it differs from a newer one; the watch
// cache keeps the versions its ring has seen superseded that way
// (watchcache/superseded.go says what that saves).

import (
	"reflect"
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
// time.Time).
type typeLeaves struct {
	typ   reflect.Type
	paths [][]int
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
	ov, nv := o.Elem(), n.Elem()
	// Two passes, so that the parts are allocated at their length: a
	// Delta is kept for as long as its version is.
	differ := 0
	for _, path := range leaves.paths {
		if !sameValue(ov.FieldByIndex(path), nv.FieldByIndex(path)) {
			differ++
		}
	}
	d := &Delta{leaves: leaves, parts: make([]deltaPart, 0, differ)}
	for i, path := range leaves.paths {
		if of := ov.FieldByIndex(path); !sameValue(of, nv.FieldByIndex(path)) {
			d.parts = append(d.parts, deltaPart{leaf: i, value: of.Interface()})
		}
	}
	return d
}

// Apply returns a new object deeply equal to the older version Diff was
// given, built from newer: a pointer to the same type, deeply equal to
// the newer version Diff was given. The result shares every part with
// newer or with the older version; like them, it must not be changed.
func (d *Delta) Apply(newer any) any {
	n := reflect.ValueOf(newer)
	out := reflect.New(d.leaves.typ)
	out.Elem().Set(n.Elem())
	for _, p := range d.parts {
		f := out.Elem().FieldByIndex(d.leaves.paths[p.leaf])
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
	var walk func(t reflect.Type, prefix []int)
	walk = func(t reflect.Type, prefix []int) {
		for i := range t.NumField() {
			path := append(append([]int(nil), prefix...), i)
			ft := t.Field(i).Type
			if ft.Kind() == reflect.Struct && !s.isOpaque(ft) {
				walk(ft, path)
				continue
			}
			l.paths = append(l.paths, path)
		}
	}
	walk(t, nil)
	s.leaves[t] = l
	return l
}

// sameValue reports whether a and b (of one type) are the same value by
// identity, which implies deeply equal. false only costs a part.
func sameValue(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.String:
		return a.String() == b.String()
	case reflect.Pointer:
		return a.Pointer() == b.Pointer()
	case reflect.Slice:
		return a.IsNil() == b.IsNil() && a.Len() == b.Len() && (a.Len() == 0 || a.Pointer() == b.Pointer())
	case reflect.Map:
		return a.IsNil() == b.IsNil() && a.Len() == b.Len() && (a.Len() == 0 || a.Pointer() == b.Pointer())
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() && b.IsNil()
		}
		return a.Elem().Type() == b.Elem().Type() && sameValue(a.Elem(), b.Elem())
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Equal(b)
	case reflect.Struct, reflect.Array:
		// Structs compared whole (time.Time, api.Quantity) and arrays.
		return reflect.DeepEqual(a.Interface(), b.Interface())
	default: // floats (NaN), funcs, channels: never the same here
		return false
	}
}
