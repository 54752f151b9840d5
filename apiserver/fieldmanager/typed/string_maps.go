package typed

// Skip on a first reading: a speed-up of the side-by-side comparison
// (compare_reflect.go). Labels and annotations are map[string]string; read
// through reflect, every key and value of them is copied to the heap
// (MapIter.Key, MapIter.Value, MapIndex box a string each): a sixth of
// BenchmarkReplacePod's allocations (apiserver/fieldmanager: 115 → 96;
// BenchmarkUpdatePod 198 → 179). Such maps are compared as Go maps instead, with the same
// answers: sameValue's equality, and what maps records for each key
// (values and only, for string values a schema takes as strings).
// TestCompareObjectsEqualsCompareOfValues and TestCompareObjectsOfKeyedLists
// cover it.

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
