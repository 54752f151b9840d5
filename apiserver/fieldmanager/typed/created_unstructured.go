package typed

// Skip on a first reading: a speed-up, CreatedFields (created_fields.go)
// for a custom resource, whose content is JSON values and not Go fields.
// Its create went through CompareObjects against the empty object, path
// by path into a Set; here the content is walked once in FieldsV1's order,
// map keys sorted and list elements by key, with the metadata walked as
// every kind's typed metadata is. What it is not sure of (a field the
// schema does not declare, a value of the wrong kind, a repeated list key,
// a list of another shape) gives up, and Compare, which knows the errors
// and what Kubernetes does, takes it. TestCreatedFieldsOfCustomResources
// holds it to CompareObjects.

import (
	"bytes"
	"reflect"
	"slices"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
)

func createdUnstructured(u *api.Unstructured, t *Type, leave, parents *fieldpath.Set) ([]byte, bool) {
	if t == nil || t.Kind != Struct || t.Atomic {
		return nil, false
	}
	val, err := unstructuredValue(u, "managedFields")
	if err != nil {
		return nil, false
	}
	top := val.(map[string]any)
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w := fieldsWriters.Get().(*fieldsWriter)
	defer w.release()
	w.b.WriteByte('{')
	w.first = true
	for _, k := range keys {
		pe := fieldpath.Field(k)
		if has(leave, pe) {
			continue
		}
		ct, _ := childType(t, k)
		if ct == nil {
			return nil, false
		}
		if k == "metadata" {
			// The empty object has metadata too (a zero ObjectMeta writes
			// its creationTimestamp as null): compared as a typed kind's.
			if !w.changed(pe, ct, reflect.ValueOf(&u.ObjectMeta).Elem(), "managedFields", leave, parents) {
				return nil, false
			}
			continue
		}
		if !w.onlyValueEntry(pe, ct, top[k], leave, parents) {
			return nil, false
		}
	}
	w.b.WriteByte('}')
	return bytes.Clone(w.b.Bytes()), true
}

// onlyValueEntry is onlyEntry for a JSON value.
func (w *fieldsWriter) onlyValueEntry(pe fieldpath.PathElement, t *Type, v any, leave, parents *fieldpath.Set) bool {
	l, p := descend(leave, pe), descend(parents, pe)
	return w.entry(pe, member, parents, func() (bool, bool) { return w.onlyNewValue(t, v, l, p) })
}

// onlyNewValue writes the paths below v, a JSON value only the new object
// has, as Comparison.compare walks it against nothing.
func (w *fieldsWriter) onlyNewValue(t *Type, v any, leave, parents *fieldpath.Set) (bool, bool) {
	if checkKind(nil, v, t) != nil {
		return false, false
	}
	start := w.b.Len()
	switch x := v.(type) {
	case map[string]any:
		if t.Kind == Untyped || t.Atomic {
			return false, true
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			pe := fieldpath.Field(k)
			if has(leave, pe) {
				continue
			}
			ct, _ := childType(t, k)
			if ct == nil || !w.onlyValueEntry(pe, ct, x[k], leave, parents) {
				return false, false
			}
		}
	case []any:
		if t.Kind == Untyped || t.ListType == ListAtomic || len(x) == 0 {
			return false, true
		}
		if t.Elem == nil || (t.ListType != ListMap && t.ListType != ListSet) {
			return false, false
		}
		pes := make([]fieldpath.PathElement, len(x))
		for i, item := range x {
			pe, err := listItemElement(t, item)
			if err != nil {
				return false, false
			}
			pes[i] = pe
		}
		order := make([]int, len(x))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return pes[a].Compare(pes[b]) })
		for n, i := range order {
			if n > 0 && pes[order[n-1]].Compare(pes[i]) == 0 {
				if t.ListType == ListMap {
					return false, false // a repeated key: Compare knows what Kubernetes does
				}
				continue // a set's repeated value is one member
			}
			if has(leave, pes[i]) {
				continue
			}
			if t.ListType == ListSet {
				if !w.leaf(pes[i], parents) {
					return false, false
				}
				continue
			}
			if !w.onlyValueEntry(pes[i], t.Elem, x[i], leave, parents) {
				return false, false
			}
		}
	}
	return w.b.Len() > start, true
}
