package typed

// Skip on a first reading: a speed-up. A create is recorded as an Update
// whose live object is empty: CompareObjects walks the new object against
// nothing, inserting every path into a Set one by one from the root
// (binary searches and slice inserts at every level), then the field
// manager takes out the stripped and reset fields and writes the set as
// FieldsV1. On a pod that was a quarter of what tracking costs
// (BenchmarkCreateUpdateManagedFields in apiserver). CreatedFields walks
// the object once in FieldsV1's order (struct fields by name, map keys
// sorted, list elements by key) and writes the JSON as it goes, leaving
// the unwanted paths out. Whatever it is not sure of (a type that writes
// itself other than Time, MicroTime, Quantity and IntOrString, a set
// list, an interface, a quoted field, a list without usable keys) makes it
// give up, and the caller takes the plain path.
// TestCreatedFieldsEqualsCompareOfEmpty (apiserver/fieldmanager) holds it
// to the plain path for every served kind. Its writers are pooled and the
// set copied out at its size: BenchmarkCreatePod 46 → 34 allocations and
// 14.6 → 9.9 kB, and a small object's set no longer keeps a 2 KiB buffer.

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"sync"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// CreatedFields is the FieldsV1 of what CompareObjects(empty, obj, t)
// reports as added or modified (a create's changed fields), without the
// paths in leave (and everything below them) and without counting those
// in parents as members. An object that sets nothing else is `{}`.
// false: not sure, take CompareObjects.
func CreatedFields(obj any, t *Type, leave, parents *fieldpath.Set) ([]byte, bool) {
	if u, ok := obj.(*api.Unstructured); ok {
		return createdUnstructured(u, t, leave, parents) // created_unstructured.go
	}
	if !walkableObject(obj) || t == nil || t.Kind != Struct {
		return nil, false
	}
	w := fieldsWriters.Get().(*fieldsWriter)
	defer w.release()
	w.b.WriteByte('{')
	w.first = true
	if _, ok := w.againstZero(t, reflect.ValueOf(obj).Elem(), "", "managedFields", leave, parents); !ok {
		return nil, false
	}
	w.b.WriteByte('}')
	// The object keeps its set as long as it lives (a watch cache holds
	// it): exactly its bytes, not the writer's buffer.
	return bytes.Clone(w.b.Bytes()), true
}

// fieldsWriters are writers with their buffers, reused by the creates
// that follow: most of a writer's allocations were its buffers growing.
var fieldsWriters = sync.Pool{New: func() any { return new(fieldsWriter) }}

// release empties w (dropping what it points into) and gives it back,
// unless a huge object made its buffer too big to keep.
func (w *fieldsWriter) release() {
	if w.b.Cap() > 1<<16 {
		return
	}
	w.b.Reset()
	w.first = false
	w.spelled = w.spelled[:0]
	clear(w.keys.vals[:cap(w.keys.vals)])
	w.keys.vals, w.keys.sorted = w.keys.vals[:0], w.keys.sorted[:0]
	fieldsWriters.Put(w)
}

// fieldsWriter writes one FieldsV1 object; first is whether the object
// being written has no entry yet.
type fieldsWriter struct {
	b     bytes.Buffer
	first bool
	// spelled is where plainItems spells a key, keys where it keeps a
	// list's (plain_keys.go).
	spelled []byte
	keys    keyScratch
}

// How an entry counts its own path.
const (
	parentOnly    = iota // never a member: nothing is written when nothing is below
	member               // a member: {} alone, {".":{},...} with paths below
	memberIfEmpty        // a member only when nothing is below
)

// entry writes `"pe":{...}` around what below writes (the paths under
// pe), as its kind says; below reports whether it wrote any, and false
// for "not sure".
func (w *fieldsWriter) entry(pe fieldpath.PathElement, kind int, parents *fieldpath.Set, below func() (bool, bool)) bool {
	return w.entryWith(pe, nil, kind, parents, below)
}

// entryWith is entry with pe's key already spelled, if spelled is not nil
// (plain_keys.go).
func (w *fieldsWriter) entryWith(pe fieldpath.PathElement, spelled []byte, kind int, parents *fieldpath.Set, below func() (bool, bool)) bool {
	if kind != parentOnly && spelled == nil && has(parents, pe) {
		kind = parentOnly
	}
	start, firstBefore := w.b.Len(), w.first
	if !w.first {
		w.b.WriteByte(',')
	}
	if spelled != nil {
		w.b.Write(spelled)
	} else if fieldpath.AppendKey(&w.b, pe) != nil {
		return false
	}
	w.b.WriteByte('{')
	mark := w.b.Len()
	w.first = true
	if kind == member {
		w.b.WriteString(`".":{}`)
		w.first = false
	}
	wrote, ok := below()
	switch {
	case !ok:
		return false
	case !wrote && kind == parentOnly:
		w.b.Truncate(start)
		w.first = firstBefore
		return true
	case !wrote:
		w.b.Truncate(mark)
	}
	w.b.WriteByte('}')
	w.first = false
	return true
}

// leaf writes `"pe":{}`, a member with nothing below.
func (w *fieldsWriter) leaf(pe fieldpath.PathElement, parents *fieldpath.Set) bool {
	return w.entry(pe, member, parents, func() (bool, bool) { return false, true })
}

// againstZero writes the changed paths below v, a struct present in both
// the new object and the empty one (Comparison.structs with a zero old
// side). omit is a field of v left out, omitInMetadata one of its
// metadata.
func (w *fieldsWriter) againstZero(t *Type, v reflect.Value, omit, omitInMetadata string, leave, parents *fieldpath.Set) (bool, bool) {
	if t.Kind != Struct || t.Atomic {
		return false, false
	}
	start := w.b.Len()
	inZero := presentInZero(v.Type())
	for i, f := range sortedFieldsOf(v.Type()) {
		if f.name == omit || has(leave, f.pe) {
			continue
		}
		fv, present := presentField(v, f)
		if !inZero[i] && !present {
			continue
		}
		ct, _ := childType(t, f.name)
		if ct == nil || f.quoted || !present {
			return false, false
		}
		inner := ""
		if f.name == "metadata" {
			inner = omitInMetadata
		}
		l, p := descend(leave, f.pe), descend(parents, f.pe)
		if !inZero[i] {
			ok := w.entry(f.pe, member, parents, func() (bool, bool) { return w.onlyNew(ct, fv, inner, l, p) })
			if !ok {
				return false, false
			}
			continue
		}
		if !w.changed(f.pe, ct, fv, inner, leave, parents) {
			return false, false
		}
	}
	return w.b.Len() > start, true
}

// changed writes what Comparison.values finds at pe between the zero
// value of v's type and v, both present.
func (w *fieldsWriter) changed(pe fieldpath.PathElement, t *Type, v reflect.Value, omit string, leave, parents *fieldpath.Set) bool {
	l, p := descend(leave, pe), descend(parents, pe)
	zero := reflect.Zero(v.Type())
	if writesItself(v.Type()) {
		if sameValue(zero, v) {
			return true
		}
		if t.Kind != Scalar || !writesScalar(v.Type()) {
			return false
		}
		return w.leafUnlessEqual(pe, zero, v, parents)
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return true
		}
		e := v.Elem()
		switch e.Kind() {
		case reflect.Struct:
			if t.Kind != Struct {
				return false
			}
			if t.Atomic { // its JSON object differs from null
				return w.leaf(pe, parents)
			}
			return w.entry(pe, memberIfEmpty, parents, func() (bool, bool) { return w.onlyNew(t, e, "", l, p) })
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return scalarFits(t, e.Kind()) && w.leaf(pe, parents)
		}
		return false
	case reflect.Struct:
		if t.Kind != Struct {
			return false
		}
		if t.Atomic {
			if sameValue(zero, v) {
				return true
			}
			return w.leafUnlessEqual(pe, zero, v, parents)
		}
		return w.entry(pe, parentOnly, parents, func() (bool, bool) { return w.againstZero(t, v, omit, "", l, p) })
	case reflect.Map:
		if v.IsNil() {
			return true
		}
		if t.Kind != Map || t.Elem == nil || v.Type().Key().Kind() != reflect.String {
			return false
		}
		if t.Atomic || v.Len() == 0 { // null against an object
			return w.leaf(pe, parents)
		}
		return w.entry(pe, parentOnly, parents, func() (bool, bool) { return w.onlyNew(t, v, "", l, p) })
	case reflect.Slice:
		if v.IsNil() {
			return true
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return scalarFits(t, reflect.String) && w.leaf(pe, parents)
		}
		if t.Kind != List {
			return false
		}
		if v.Len() == 0 || t.ListType == ListAtomic { // null against a list
			return w.leaf(pe, parents)
		}
		if t.ListType == ListSet {
			return w.entry(pe, parentOnly, parents, func() (bool, bool) { return w.setValues(t, v, l, p) })
		}
		if t.ListType != ListMap {
			return false
		}
		return w.entry(pe, parentOnly, parents, func() (bool, bool) { return w.onlyNew(t, v, "", l, p) })
	case reflect.String:
		return v.String() == "" || scalarFits(t, reflect.String) && w.leaf(pe, parents)
	case reflect.Bool:
		return !v.Bool() || scalarFits(t, reflect.Bool) && w.leaf(pe, parents)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0 || scalarFits(t, reflect.Int) && w.leaf(pe, parents)
	}
	return false
}

// leafUnlessEqual writes pe as a member when l and r, of a type that
// writes itself or an atomic struct, write different JSON values.
func (w *fieldsWriter) leafUnlessEqual(pe fieldpath.PathElement, l, r reflect.Value, parents *fieldpath.Set) bool {
	lv, err := reflectValue(l)
	if err != nil {
		return false
	}
	rv, err := reflectValue(r)
	if err != nil {
		return false
	}
	if fieldpath.EqualValues(lv, rv) {
		return true
	}
	return w.leaf(pe, parents)
}

// scalarFits reports whether a scalar of Go kind k passes checkKind at t.
func scalarFits(t *Type, k reflect.Kind) bool {
	if t.Kind != Scalar {
		return false
	}
	switch t.ScalarType {
	case "untyped":
		return true
	case "string":
		return k == reflect.String
	case "boolean":
		return k == reflect.Bool
	case "numeric":
		return k != reflect.String && k != reflect.Bool
	}
	return false
}

// onlyNew writes the paths below v, a value only the new object has, as
// Comparison.only walks it: everything present, list elements by key.
// omit is a field of v left out.
func (w *fieldsWriter) onlyNew(t *Type, v reflect.Value, omit string, leave, parents *fieldpath.Set) (bool, bool) {
	if writesItself(v.Type()) {
		return false, t.Kind == Scalar && t.ScalarType == "untyped" && writesScalar(v.Type())
	}
	start := w.b.Len()
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return false, true
		}
		return w.onlyNew(t, v.Elem(), omit, leave, parents)
	case reflect.Struct:
		if t.Kind != Struct {
			return false, false
		}
		if t.Atomic {
			return false, true
		}
		for _, f := range sortedFieldsOf(v.Type()) {
			fv, ok := presentField(v, f)
			if !ok || f.name == omit || has(leave, f.pe) {
				continue
			}
			ct, _ := childType(t, f.name)
			if f.quoted || ct == nil || !w.onlyEntry(f.pe, ct, fv, leave, parents) {
				return false, false
			}
		}
	case reflect.Map:
		if t.Kind != Map || t.Elem == nil || v.Type().Key().Kind() != reflect.String {
			return false, false
		}
		if t.Atomic {
			return false, true
		}
		if leave.Empty() && parents.Empty() {
			if wrote, ok, handled := w.stringMapKeys(v); handled { // string_maps.go
				return wrote, ok
			}
		}
		keys := v.MapKeys() // a new slice, sorted in place
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			pe := fieldpath.Field(k.String())
			if has(leave, pe) {
				continue
			}
			if !w.onlyEntry(pe, t.Elem, v.MapIndex(k), leave, parents) {
				return false, false
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return false, true // base64, a scalar
		}
		if t.Kind != List {
			return false, false
		}
		if v.Len() == 0 || t.ListType == ListAtomic {
			return false, true
		}
		if t.ListType == ListSet {
			return w.setValues(t, v, leave, parents)
		}
		if t.ListType != ListMap || t.Elem == nil {
			return false, false
		}
		if leave.Empty() && parents.Empty() {
			if wrote, ok, handled := w.plainItems(t, v); handled { // plain_keys.go
				return wrote, ok
			}
		}
		keys, ok := itemKeys(t, v)
		if !ok {
			return false, false
		}
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return keys[a].Compare(keys[b]) })
		for _, i := range order {
			if has(leave, keys[i]) {
				continue
			}
			if !w.onlyEntry(keys[i], t.Elem, v.Index(i), leave, parents) {
				return false, false
			}
		}
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return false, true
	default:
		return false, false
	}
	return w.b.Len() > start, true
}

// setValues writes the elements of a set of strings as members, by
// value, each once (Comparison.compareItems against nothing); other sets
// are left to compare.
func (w *fieldsWriter) setValues(t *Type, v reflect.Value, leave, parents *fieldpath.Set) (bool, bool) {
	if v.Type().Elem().Kind() != reflect.String || t.Elem == nil || !scalarFits(t.Elem, reflect.String) {
		return false, false
	}
	values := make([]string, v.Len())
	for i := range values {
		values[i] = v.Index(i).String()
	}
	slices.Sort(values)
	values = slices.Compact(values)
	start := w.b.Len()
	for _, s := range values {
		pe := fieldpath.Value(s)
		if has(leave, pe) {
			continue
		}
		if !w.leaf(pe, parents) {
			return false, false
		}
	}
	return w.b.Len() > start, true
}

// onlyEntry writes the member pe, a value only the new object has, with
// everything below it.
func (w *fieldsWriter) onlyEntry(pe fieldpath.PathElement, t *Type, v reflect.Value, leave, parents *fieldpath.Set) bool {
	l, p := descend(leave, pe), descend(parents, pe)
	return w.entry(pe, member, parents, func() (bool, bool) { return w.onlyNew(t, v, "", l, p) })
}

// has reports whether s (which may be nil) has the one-element path pe.
func has(s *fieldpath.Set, pe fieldpath.PathElement) bool {
	return !s.Empty() && s.Has(fieldpath.Path{pe})
}

// descend is s below pe, nil when s has nothing there.
func descend(s *fieldpath.Set, pe fieldpath.PathElement) *fieldpath.Set {
	if s.Empty() {
		return nil
	}
	if d := s.Below(pe); !d.Empty() {
		return d
	}
	return nil
}

// presentInZero reports, for each of sortedFieldsOf(t), whether the zero
// value of t writes the field, remembered per type.
func presentInZero(t reflect.Type) []bool {
	if p, ok := zeroPresence.Load(t); ok {
		return p.([]bool)
	}
	zero := reflect.Zero(t)
	fs := sortedFieldsOf(t)
	out := make([]bool, len(fs))
	for i, f := range fs {
		_, out[i] = presentField(zero, f)
	}
	zeroPresence.Store(t, out)
	return out
}

// zeroPresence caches presentInZero.
var zeroPresence sync.Map // reflect.Type → []bool
// writesScalar reports whether a type that writes itself always writes a
// scalar or null: kubeloop's Time, MicroTime, Quantity and IntOrString.
func writesScalar(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.PkgPath() != "kubeloop/api" {
		return false
	}
	switch t.Name() {
	case "Time", "MicroTime", "Quantity", "IntOrString":
		return true
	}
	return false
}

// sortedFieldsOf is fieldsOf in the order of their names, FieldsV1's
// order, remembered per type.
func sortedFieldsOf(t reflect.Type) []jsonField {
	if fs, ok := sortedStructFields.Load(t); ok {
		return fs.([]jsonField)
	}
	fs := slices.Clone(fieldsOf(t))
	slices.SortFunc(fs, func(a, b jsonField) int { return strings.Compare(a.name, b.name) })
	sortedStructFields.Store(t, fs)
	return fs
}

// sortedStructFields caches sortedFieldsOf; types never change while a
// process runs.
var sortedStructFields sync.Map // reflect.Type → []jsonField
