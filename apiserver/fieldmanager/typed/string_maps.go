package typed

// Skip on a first reading: a speed-up of the side-by-side comparison
// (compare_reflect.go) and of CreatedFields. Labels and annotations are
// map[string]string; read through reflect, every key and value of them is
// copied to the heap (MapKeys, MapIter.Key, MapIter.Value, MapIndex box a
// string each): a sixth of BenchmarkReplacePod's allocations
// (apiserver/fieldmanager: 115 → 96; BenchmarkUpdatePod 198 → 179). Such
// maps are read as Go maps instead, with the same answers: sameValue's
// equality, what maps records for each key (values and only, for string
// values a schema takes as strings), and the members onlyNew writes.
// TestCompareObjectsEqualsCompareOfValues, TestCompareObjectsOfKeyedLists
// and TestCreatedFieldsEqualsCompareOfEmpty cover it.

import (
	"maps"
	"reflect"
	"slices"

	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// stringMaps is l and r as map[string]string, when both are.
func stringMaps(l, r reflect.Value) (lm, rm map[string]string, ok bool) {
	if !l.CanInterface() || !r.CanInterface() {
		return nil, nil, false
	}
	lm, lok := l.Interface().(map[string]string)
	rm, rok := r.Interface().(map[string]string)
	return lm, rm, lok && rok
}

// sameStringMaps is sameValue for two maps of strings: nil only equals nil.
func sameStringMaps(l, r map[string]string) bool {
	return (l == nil) == (r == nil) && maps.Equal(l, r)
}

// stringMapItems is Comparison.maps for two maps of strings whose values
// the schema takes as strings; false: not such maps.
func (c *Comparison) stringMapItems(p fieldpath.Path, t *Type, l, r reflect.Value) bool {
	if t.Elem == nil || !scalarFits(t.Elem, reflect.String) || writesItself(l.Type().Elem()) {
		return false
	}
	lm, rm, ok := stringMaps(l, r)
	if !ok {
		return false
	}
	for k, lv := range lm {
		rv, both := rm[k]
		switch {
		case !both:
			c.Removed.Insert(append(slices.Clip(p), fieldpath.Field(k)))
		case lv != rv:
			c.Modified.Insert(append(slices.Clip(p), fieldpath.Field(k)))
		}
	}
	for k := range rm {
		if _, both := lm[k]; !both {
			c.Added.Insert(append(slices.Clip(p), fieldpath.Field(k)))
		}
	}
	return true
}

// stringMapKeys writes a member for each key of v, a map of strings only
// the new object has, in FieldsV1's order, as onlyNew does (a string value
// has nothing below it); handled false: not such a map.
func (w *fieldsWriter) stringMapKeys(v reflect.Value) (wrote, ok, handled bool) {
	if !v.CanInterface() {
		return false, false, false
	}
	m, isStrings := v.Interface().(map[string]string)
	if !isStrings {
		return false, false, false
	}
	keys := slices.Sorted(maps.Keys(m))
	for _, k := range keys {
		if !w.leaf(fieldpath.Field(k), nil) {
			return false, false, true
		}
	}
	return len(keys) > 0, true, true
}
