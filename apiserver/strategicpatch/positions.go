package strategicpatch

// Skip on a first reading: this file is how list.go finds an element by its
// merge key without scanning the list.
//
// Merging a list matches every patch element with an element of the live
// list, and ordering the result asks, for every element, where it stands in
// the patch and in the live list. Kubernetes answers each question with a
// scan (findMapInSliceBasedOnKeyValue, index), so one patch of n containers
// costs n² comparisons, and its sort comparator scans too. A positions
// index answers in one map look-up: merging a list is linear plus one sort.
// BenchmarkApplyManyContainers shows the cost per container staying flat;
// TestApplyIsNotQuadratic fails if it grows with n again.

// positions remembers where each identity (see identity) first occurs in a
// list. Elements without an identity are never found.
type positions struct {
	key   string
	first map[any]int
}

func positionsOf(list []any, key string) positions {
	p := positions{key: key, first: make(map[any]int, len(list))}
	for i, v := range list {
		p.add(v, i)
	}
	return p
}

// add records that v stands at index i, unless an element with the same
// identity stands earlier: a scan would find that one first.
func (p positions) add(v any, i int) {
	id, ok := identity(v, p.key)
	if !ok {
		return
	}
	if _, seen := p.first[id]; !seen {
		p.first[id] = i
	}
}

// of returns the index of the first element with v's identity, or -1.
func (p positions) of(v any) int {
	id, ok := identity(v, p.key)
	if !ok {
		return -1
	}
	if i, found := p.first[id]; found {
		return i
	}
	return -1
}

// identity is what an element is matched by: in a list of objects, the
// value of its merge key (nil when it has none); in a list of scalars
// (key ""), the element itself. Only scalars (strings, json.Numbers,
// booleans, null) are identities: they compare with ==, as in Kubernetes.
// An object in a list of scalars, a scalar in a list of objects and a merge
// key whose value is an object or a list match nothing; a patch element
// with such a merge key is refused before it gets here (mergeList).
func identity(v any, key string) (any, bool) {
	if key == "" {
		return v, isScalar(v)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	kv := m[key]
	return kv, isScalar(kv)
}
