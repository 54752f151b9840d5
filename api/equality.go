package api

import (
	"reflect"
	"time"
)

// SemanticEqual reports whether a and b say the same thing on the wire:
// nil and empty slices and maps are equal (a nil pointer is not equal to a
// pointer to a zero value, as "started": false is not an absent field);
// timestamps compare at the precision the wire keeps (Time whole seconds,
// MicroTime microseconds, whatever their time zone), and quantities compare
// by amount ("1" equals "1000m"). Everything else compares as
// reflect.DeepEqual would.
//
// Kubernetes: apimachinery/pkg/api/equality (Semantic.DeepEqual, on the
// forked reflect DeepEqual in third_party/forked/golang/reflect), which the
// apiserver uses to decide whether a spec changed and the kubelet whether a
// status needs writing. Comparing in place is much cheaper than encoding
// both sides to JSON and comparing the bytes, which is what kubeloop did
// first.
func SemanticEqual(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if !va.IsValid() || !vb.IsValid() {
		return va.IsValid() == vb.IsValid()
	}
	if va.Type() != vb.Type() {
		return false
	}
	return semanticEqual(va, vb)
}

func semanticEqual(a, b reflect.Value) bool {
	switch a.Type() {
	case reflect.TypeFor[Time]():
		return sameInstant(a.Field(0), b.Field(0), time.Second)
	case reflect.TypeFor[MicroTime]():
		return sameInstant(a.Field(0), b.Field(0), time.Microsecond)
	case reflect.TypeFor[time.Time]():
		return sameInstant(a, b, 0)
	case reflect.TypeFor[Quantity]():
		qa, qb := Quantity(a.String()), Quantity(b.String())
		if qa == qb {
			return true
		}
		ra, errA := qa.amount()
		rb, errB := qb.amount()
		return errA == nil && errB == nil && ra.Cmp(rb) == 0
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Kind() == reflect.Interface && a.Elem().Type() != b.Elem().Type() {
			return false
		}
		return semanticEqual(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if !semanticEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !semanticEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		iter := a.MapRange()
		for iter.Next() {
			bv := b.MapIndex(iter.Key())
			if !bv.IsValid() || !semanticEqual(iter.Value(), bv) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	}
	// Kinds the API types do not use (channels, funcs, complex numbers).
	return a.CanInterface() && b.CanInterface() && reflect.DeepEqual(a.Interface(), b.Interface())
}

// sameInstant compares two time.Time values at the given precision (0 for
// exact). API types hold times only in exported fields, where Interface is
// allowed.
func sameInstant(a, b reflect.Value, precision time.Duration) bool {
	ta, tb := a.Interface().(time.Time), b.Interface().(time.Time)
	if precision > 0 {
		ta, tb = ta.Truncate(precision), tb.Truncate(precision)
	}
	return ta.Equal(tb)
}
