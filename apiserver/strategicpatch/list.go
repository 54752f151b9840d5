package strategicpatch

import (
	"cmp"
	"encoding/json"
	"slices"
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
	var items []map[string]any
	deleted := map[any]bool{} // merge keys of the "$patch: delete" elements
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
			if err := checkMergeKey(key, kv); err != nil {
				return nil, err
			}
			deleted[kv] = true
		case replaceDirective:
			// The other elements of the patch are the whole new list.
			return cleanListMaps(patch, elem)
		default:
			return nil, badPatch("unknown %s directive %v in a list", directiveMarker, m[directiveMarker])
		}
	}
	base := withoutDeleted(original, key, deleted)
	order := make([]any, 0, len(items))
	merged := append([]any{}, base...)
	at := positionsOf(merged, key)
	for _, m := range items {
		kv, ok := m[key]
		if !ok {
			return nil, badPatch("list element has no merge key %q", key)
		}
		if err := checkMergeKey(key, kv); err != nil {
			return nil, err
		}
		order = append(order, m)
		if i := at.of(m); i >= 0 {
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
		// A later patch element with the same key merges into this one.
		at.add(out, len(merged))
		merged = append(merged, out)
	}
	return orderLike(merged, order, base, key)
}

// checkMergeKey refuses a merge key whose value is an object or a list:
// every merge key of Kubernetes' types is a string or an integer, and
// Kubernetes, comparing with ==, would panic on such a value.
func checkMergeKey(key string, v any) error {
	if !isScalar(v) {
		js, _ := json.Marshal(v)
		return badPatch("the merge key %q of a list element must be a string, a number or a boolean, not %s", key, js)
	}
	return nil
}

// withoutDeleted drops the elements whose merge key a "$patch: delete"
// element named (every one of them, as Kubernetes' deleteMatchingEntries).
func withoutDeleted(list []any, key string, deleted map[any]bool) []any {
	out := make([]any, 0, len(list))
	for _, e := range list {
		if id, ok := identity(e, key); ok && deleted[id] {
			continue
		}
		out = append(out, e)
	}
	return out
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
	if key != "" {
		for _, o := range order {
			if m, ok := o.(map[string]any); ok {
				if err := checkMergeKey(key, m[key]); err != nil {
					return err
				}
			}
		}
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
	inOrder, inServer := positionsOf(order, key), positionsOf(serverOrder, key)
	var named, serverOnly []any
	for _, v := range merged {
		if inOrder.of(v) >= 0 {
			named = append(named, v)
		} else {
			serverOnly = append(serverOnly, v)
		}
	}
	sortBy(named, inOrder, len(order))
	sortBy(serverOnly, inServer, len(serverOrder))
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
			li, ri := inServer.of(serverOnly[i]), inServer.of(named[j])
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

// sortBy sorts list stably by where its elements stand in pos; the ones pos
// does not know go last (at index absent).
func sortBy(list []any, pos positions, absent int) {
	type placed struct {
		at int
		v  any
	}
	ps := make([]placed, len(list))
	for i, v := range list {
		at := pos.of(v)
		if at < 0 {
			at = absent
		}
		ps[i] = placed{at, v}
	}
	slices.SortStableFunc(ps, func(a, b placed) int { return cmp.Compare(a.at, b.at) })
	for i, p := range ps {
		list[i] = p.v
	}
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
