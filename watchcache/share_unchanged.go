package watchcache

// Skip on a first reading: a memory saving. The cache is complete without
// it; each object it takes in then keeps every part it was decoded with.
//
// What it saves: the ring keeps several versions of each object (a pod
// in a scale-up has three: created, bound, Running), and a version differs
// from the one before in a few fields: the binding sets spec.nodeName, a
// status write changes status, and the spec, labels, owner and most
// managedFields sets stay as they were. Pods of one ReplicaSet differ from
// each other in little more than their names. Here each object the cache
// takes in is compared, part by part, with the version it replaces (or,
// for a new object, with the object added before it), and every part
// that is equal is replaced by the older object's: equal parts are then
// held once. At 30 pods on 1000 nodes (BenchmarkScaleGrowth) that is
// docs/performance.md's session 7 row "watch cache shares unchanged
// parts".
//
// It is sound because objects in the cache are never changed once stored
// (watchers, lists and the encode memo share them; writers get a
// DeepCopy, cacher_read.go: cachedCopy), and the object being shared is
// the cache's own and not yet visible to anyone.

import (
	"bytes"
	"reflect"
	"unsafe"

	"kubeloop/api"
)

// partSharer holds what sharing needs between objects: the last object
// added (a new object's parts are shared with it) and which struct types
// are compared whole. Cacher.mu guards it, with the rest of watchCache.
type partSharer struct {
	lastAdded api.Object
	opaque    map[reflect.Type]bool
}

// share makes obj share its equal parts with prev, the version it
// replaces, or, when it has none, with the object added before it.
func (p *partSharer) share(obj, prev api.Object) {
	older := prev
	if older == nil {
		older, p.lastAdded = p.lastAdded, obj
	}
	if older == nil {
		return
	}
	dst, src := reflect.ValueOf(obj), reflect.ValueOf(older)
	if dst.Type() != src.Type() || dst.Kind() != reflect.Pointer || dst.IsNil() || src.IsNil() || dst.Pointer() == src.Pointer() {
		return
	}
	if p.opaque == nil {
		p.opaque = map[reflect.Type]bool{}
	}
	p.shareEqual(dst.Elem(), src.Elem())
}

// shareEqual reports whether dst equals src (as reflect.DeepEqual would
// say), and on the way replaces each pointer, slice, map and string of
// dst that equals src's by src's. dst must be settable.
func (p *partSharer) shareEqual(dst, src reflect.Value) bool {
	switch dst.Kind() {
	case reflect.Struct:
		if p.isOpaque(dst.Type()) {
			// api.Time, api.Quantity: compared whole, not taken apart.
			return reflect.DeepEqual(dst.Interface(), src.Interface())
		}
		eq := true
		for i := range dst.NumField() {
			if !p.shareEqual(dst.Field(i), src.Field(i)) {
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
		if p.shareEqual(dst.Elem(), src.Elem()) {
			dst.Set(src)
			return true
		}
		return false
	case reflect.Slice:
		if dst.IsNil() != src.IsNil() || dst.Len() != src.Len() {
			return false
		}
		if dst.Len() == 0 || dst.Pointer() == src.Pointer() {
			return true
		}
		var eq bool
		if dst.Type().Elem().Kind() == reflect.Uint8 {
			eq = bytes.Equal(dst.Bytes(), src.Bytes()) // FieldsV1's sets
		} else {
			eq = true
			for i := range dst.Len() {
				if !p.shareEqual(dst.Index(i), src.Index(i)) {
					eq = false
				}
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
func (p *partSharer) isOpaque(t reflect.Type) bool {
	opaque, ok := p.opaque[t]
	if !ok {
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				opaque = true
			}
		}
		p.opaque[t] = opaque
	}
	return opaque
}
