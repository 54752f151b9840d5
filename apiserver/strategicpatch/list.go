package strategicpatch

import (
	"reflect"
	"sort"
)

// mergeList merges a patch list into the original list of one field. A
// field without the merge strategy is replaced by the patch.
func mergeList(original, patch []any, f *Field) ([]any, error) {
	var elem *Schema
	if f != nil {
		elem = f.Schema
	}
	if f == nil || !f.Merge {
		return cleanList(patch, elem)
	}
	if len(original) == 0 && len(patch) == 0 {
		return patch, nil
	}
	if !listOfMaps(original, patch) {
		merged := dedupeScalars(append(append([]any{}, original...), patch...))
		return orderLike(merged, patch, original, "")
	}
	if f.MergeKey == "" {
		return nil, badPatch("cannot merge a list of objects without a merge key")
	}
	key := f.MergeKey
	base := append([]any{}, original...)
	var items []map[string]any
	for _, v := range patch {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, badPatch("list element %v is not an object", v)
		}
		switch m[directiveMarker] {
		case nil:
			items = append(items, m)
		case deleteDirective:
			kv, ok := m[key]
			if !ok {
				return nil, badPatch("%s element without merge key %q", deleteDirective, key)
			}
			base = removeByKey(base, key, kv)
		case replaceDirective:
			// The other elements of the patch are the whole new list.
			return cleanListMaps(patch, elem)
		default:
			return nil, badPatch("unknown %s directive %v in a list", directiveMarker, m[directiveMarker])
		}
	}
	order := make([]any, 0, len(items))
	merged := append([]any{}, base...)
	for _, m := range items {
		kv, ok := m[key]
		if !ok {
			return nil, badPatch("list element has no merge key %q", key)
		}
		order = append(order, m)
		if i := indexByKey(merged, key, kv); i >= 0 {
			om, _ := merged[i].(map[string]any)
			out, err := MergeMap(om, m, elem)
			if err != nil {
				return nil, err
			}
			merged[i] = out
			continue
		}
		out, err := MergeMap(map[string]any{}, m, elem)
		if err != nil {
			return nil, err
		}
		merged = append(merged, out)
	}
	return orderLike(merged, order, base, key)
}

// cleanListMaps builds the list a "$patch: replace" element asks for: every
// non-directive element of the patch.
func cleanListMaps(patch []any, elem *Schema) ([]any, error) {
	rest := make([]any, 0, len(patch))
	for _, v := range patch {
		if m, ok := v.(map[string]any); ok && m[directiveMarker] != nil {
			continue
		}
		rest = append(rest, v)
	}
	return cleanList(rest, elem)
}

// cleanList is the value of a list that replaces what was there: directives
// are applied to empty objects, so none of them reach the stored object.
func cleanList(list []any, elem *Schema) ([]any, error) {
	out := make([]any, 0, len(list))
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			out = append(out, v)
			continue
		}
		if m[directiveMarker] != nil && m[directiveMarker] != replaceDirective && m[directiveMarker] != mergeDirective {
			continue
		}
		c, err := MergeMap(map[string]any{}, m, elem)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// applyElementOrder handles "$setElementOrder/<name>": the list name is
// merged (if the patch changes it) and then put in the given order.
func applyElementOrder(original, patch map[string]any, name string, v any, f *Field) error {
	order, ok := v.([]any)
	if !ok {
		return badPatch("%s%s must be a list", setElementOrderPrefix, name)
	}
	cur, hasCur := original[name].([]any)
	pl, hasPatch := patch[name].([]any)
	var merged []any
	var err error
	switch {
	case hasPatch:
		merged, err = mergeList(cur, pl, f)
		if err != nil {
			return err
		}
		delete(patch, name)
	case hasCur:
		merged = cur
	default:
		return nil
	}
	key := ""
	if f != nil {
		key = f.MergeKey
	}
	out, err := orderLike(merged, order, cur, key)
	if err != nil {
		return err
	}
	original[name] = out
	return nil
}

// orderLike puts a merged list in order: the elements named by order (the
// patch list or a $setElementOrder list) come in that order, and the
// elements only the server has keep their places relative to them as far as
// the server's order (serverOrder) allows. This is Kubernetes'
// normalizeElementOrder + mergeSortedSlice.
func orderLike(merged, order, serverOrder []any, key string) ([]any, error) {
	var named, serverOnly []any
	for _, v := range merged {
		if indexOf(order, v, key) >= 0 {
			named = append(named, v)
		} else {
			serverOnly = append(serverOnly, v)
		}
	}
	sortBy(named, order, key)
	sortBy(serverOnly, serverOrder, key)
	out := make([]any, 0, len(merged))
	i, j := 0, 0
	for i < len(serverOnly) || j < len(named) {
		switch {
		case j >= len(named):
			out = append(out, serverOnly[i])
			i++
		case i >= len(serverOnly):
			out = append(out, named[j])
			j++
		default:
			li, ri := indexOf(serverOrder, serverOnly[i], key), indexOf(serverOrder, named[j], key)
			if li >= 0 && ri >= 0 && li < ri {
				out = append(out, serverOnly[i])
				i++
			} else {
				out = append(out, named[j])
				j++
			}
		}
	}
	return out, nil
}

func sortBy(list, order []any, key string) {
	pos := func(v any) int {
		if i := indexOf(order, v, key); i >= 0 {
			return i
		}
		return len(order)
	}
	sort.SliceStable(list, func(a, b int) bool { return pos(list[a]) < pos(list[b]) })
}

// indexOf finds v in list: by merge key for objects, by value for scalars.
func indexOf(list []any, v any, key string) int {
	if key == "" {
		for i, e := range list {
			if isScalar(e) && isScalar(v) && e == v {
				return i
			}
		}
		return -1
	}
	m, ok := v.(map[string]any)
	if !ok {
		return -1
	}
	return indexByKey(list, key, m[key])
}

func indexByKey(list []any, key string, kv any) int {
	for i, e := range list {
		if m, ok := e.(map[string]any); ok && reflect.DeepEqual(m[key], kv) {
			return i
		}
	}
	return -1
}

func removeByKey(list []any, key string, kv any) []any {
	out := list[:0:0]
	for _, e := range list {
		if m, ok := e.(map[string]any); ok && reflect.DeepEqual(m[key], kv) {
			continue
		}
		out = append(out, e)
	}
	return out
}

func listOfMaps(a, b []any) bool {
	for _, l := range [][]any{b, a} {
		for _, v := range l {
			_, ok := v.(map[string]any)
			return ok
		}
	}
	return false
}

func dedupeScalars(list []any) []any {
	seen := map[any]bool{}
	out := make([]any, 0, len(list))
	for _, v := range list {
		if isScalar(v) {
			if seen[v] {
				continue
			}
			seen[v] = true
		}
		out = append(out, v)
	}
	return out
}
