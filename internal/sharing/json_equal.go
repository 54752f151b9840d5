package sharing

// Skip on a first reading: a speed-up of shareEqual's maps. reflect.DeepEqual
// walks a map through reflect values it allocates per entry; the maps of
// API objects are labels, annotations, a ConfigMap's data and a custom
// resource's content, all of which a type switch compares directly. A
// custom resource's content (map[string]any) was most of what the watch
// cache spent sharing it (BenchmarkCreateCustomResourceVsConfigMap in
// crdserving). TestEqualMapsIsDeepEqual holds it to reflect.DeepEqual.

import "reflect"

// equalMaps is reflect.DeepEqual(a, b) for the map types it knows; ok
// false for any other.
func equalMaps(a, b reflect.Value) (eq, ok bool) {
	switch x := a.Interface().(type) {
	case map[string]string:
		y := b.Interface().(map[string]string)
		if len(x) != len(y) {
			return false, true
		}
		for k, v := range x {
			if w, found := y[k]; !found || w != v {
				return false, true
			}
		}
		return true, true
	case map[string]any:
		return equalJSON(x, b.Interface()), true
	}
	return false, false
}

// equalJSON is reflect.DeepEqual for unstructured values, down to any type
// it does not know, which DeepEqual compares.
func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		if reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer() {
			return true // one map, as DeepEqual says even with a NaN in it
		}
		for k, v := range x {
			if w, found := y[k]; !found || !equalJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		if len(x) > 0 && &x[0] == &y[0] {
			return true // one array, as DeepEqual says
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}
