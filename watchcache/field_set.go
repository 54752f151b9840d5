package watchcache

// Skip on a first reading: a memory saving. A map of the fields
// (ResourceInfo.ObjectFields, what the plain path keeps) gives the same
// answers.
//
// What it saves: the cache keeps the selectable fields of every object it
// holds and of every version in its ring (a field selector is matched
// against both states of a change). As a map that is some 700 bytes for a
// pod's ten fields; as a slice of values beside one shared list of names
// it is 160. At 30 pods on 200 nodes the maps were 17 of the 203 MB the
// heap held with every pod Running, at 1000 nodes 121 MB of 2.15 GB
// before this session's other savings (docs/performance.md, session 7).

import (
	"slices"

	"kubeloop/api"
)

// fieldSet is an object's selectable fields: names, sorted and shared by
// every set of the kind that has the same names, and their values.
type fieldSet struct {
	names  []string
	values []string
}

// fieldNames remembers the names of the last set built, for the next set
// to share. Cacher.mu guards it, with the rest of watchCache.
type fieldNames struct{ last []string }

// newFieldSet builds obj's set, sharing the names of the previous one when
// they are the same.
func (n *fieldNames) newFieldSet(info *api.ResourceInfo, obj api.Object) fieldSet {
	m := info.ObjectFields(obj)
	names := n.last
	if len(names) != len(m) || !hasAll(m, names) {
		names = make([]string, 0, len(m))
		for k := range m {
			names = append(names, k)
		}
		slices.Sort(names)
		n.last = names
	}
	values := make([]string, len(names))
	for i, k := range names {
		values[i] = m[k]
	}
	return fieldSet{names: names, values: values}
}

func hasAll(m map[string]string, names []string) bool {
	for _, k := range names {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// get is the value of a field; an absent field reads as "", as in
// api.FieldRequirement.
func (s fieldSet) get(name string) string {
	if i, ok := slices.BinarySearch(s.names, name); ok {
		return s.values[i]
	}
	return ""
}

// matches is sel.Matches on the set: every clause, = or !=, holds.
func (s fieldSet) matches(sel api.FieldSelector) bool {
	for _, r := range sel.Requirements() {
		eq := s.get(r.Field) == r.Value
		if eq == (r.Operator == api.SelectionNotEquals) {
			return false
		}
	}
	return true
}
