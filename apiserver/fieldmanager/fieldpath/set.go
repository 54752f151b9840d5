package fieldpath

import (
	"slices"
	"strings"
)

// Set is a set of paths, stored as a tree. Invariants: members and
// children are sorted by PathElement.Compare without duplicates, and no
// child set is empty (operations drop children that become empty). A path
// element may be both a member and a child: the field is owned itself and
// so are fields below it (a list element and its image). A set is built
// with Insert and never changed afterwards: the operations return new sets,
// which may share unchanged parts with the sets they were made from.
type Set struct {
	members  []PathElement
	children []setNode
}

type setNode struct {
	pe  PathElement
	set *Set
}

// NewSet returns a set holding the given paths.
func NewSet(paths ...Path) *Set {
	s := &Set{}
	for _, p := range paths {
		s.Insert(p)
	}
	return s
}

// Insert adds a path; the empty path adds nothing.
func (s *Set) Insert(p Path) {
	if len(p) == 0 {
		return
	}
	for len(p) > 1 {
		s = s.child(p[0])
		p = p[1:]
	}
	s.insertMember(p[0])
}

// InsertElement adds the one-element path pe.
func (s *Set) insertMember(pe PathElement) {
	i, found := slices.BinarySearchFunc(s.members, pe, PathElement.Compare)
	if !found {
		s.members = slices.Insert(s.members, i, pe)
	}
}

// child returns the child set for pe, creating it.
func (s *Set) child(pe PathElement) *Set {
	i, found := slices.BinarySearchFunc(s.children, pe, compareNode)
	if !found {
		s.children = slices.Insert(s.children, i, setNode{pe: pe, set: &Set{}})
	}
	return s.children[i].set
}

func compareNode(n setNode, pe PathElement) int { return n.pe.Compare(pe) }

// Descend returns the set of paths below pe (without the pe prefix); empty
// if there are none.
func (s *Set) Descend(pe PathElement) *Set {
	if i, found := slices.BinarySearchFunc(s.children, pe, compareNode); found {
		return s.children[i].set
	}
	return &Set{}
}

// Has reports whether p is a member of the set.
func (s *Set) Has(p Path) bool {
	if len(p) == 0 {
		return false
	}
	for len(p) > 1 {
		i, found := slices.BinarySearchFunc(s.children, p[0], compareNode)
		if !found {
			return false
		}
		s, p = s.children[i].set, p[1:]
	}
	_, found := slices.BinarySearchFunc(s.members, p[0], PathElement.Compare)
	return found
}

// Empty reports whether the set has no paths.
func (s *Set) Empty() bool {
	return s == nil || (len(s.members) == 0 && len(s.children) == 0)
}

// Size counts the paths in the set.
func (s *Set) Size() int {
	if s == nil {
		return 0
	}
	n := len(s.members)
	for _, c := range s.children {
		n += c.set.Size()
	}
	return n
}

// Equals reports whether two sets hold the same paths.
func (s *Set) Equals(o *Set) bool {
	if s.Empty() || o.Empty() {
		return s.Empty() && o.Empty()
	}
	if len(s.members) != len(o.members) || len(s.children) != len(o.children) {
		return false
	}
	for i := range s.members {
		if !s.members[i].Equals(o.members[i]) {
			return false
		}
	}
	for i := range s.children {
		if !s.children[i].pe.Equals(o.children[i].pe) || !s.children[i].set.Equals(o.children[i].set) {
			return false
		}
	}
	return true
}

// Union returns the paths in s or o. It is s itself when o adds nothing
// (set_share.go).
func (s *Set) Union(o *Set) *Set {
	if s != nil && o.Empty() {
		return s
	}
	members := unionOfElements(s.elems(), o.elems())
	sc, oc := s.nodes(), o.nodes()
	var children []setNode // nil while every child is s's own
	i, j := 0, 0
	for i < len(sc) || j < len(oc) {
		switch c := compareAt(sc, i, oc, j); {
		case c < 0:
			if children != nil {
				children = append(children, sc[i]) // shared (set_share.go)
			}
			i++
		case c > 0:
			children = append(ownChildren(children, sc, i), oc[j])
			j++
		default:
			if u := sc[i].set.Union(oc[j].set); u != sc[i].set {
				children = append(ownChildren(children, sc, i), setNode{sc[i].pe, u})
			} else if children != nil {
				children = append(children, sc[i])
			}
			i, j = i+1, j+1
		}
	}
	if children == nil {
		if s != nil && len(members) == len(s.members) {
			return s
		}
		children = sc
	}
	return &Set{members: members, children: children}
}

// Intersection returns the paths in both s and o.
func (s *Set) Intersection(o *Set) *Set {
	out := &Set{members: mergeElements(s.elems(), o.elems(), false, true, false)}
	sc, oc := s.nodes(), o.nodes()
	i, j := 0, 0
	for i < len(sc) && j < len(oc) {
		switch c := compareAt(sc, i, oc, j); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			if in := sc[i].set.Intersection(oc[j].set); !in.Empty() {
				out.children = append(out.children, setNode{sc[i].pe, in})
			}
			i, j = i+1, j+1
		}
	}
	return out
}

// Overlaps reports whether s and o have a path in common: whether
// s.Intersection(o) would not be empty, without building it.
func (s *Set) Overlaps(o *Set) bool {
	if s.Empty() || o.Empty() {
		return false
	}
	for _, m := range o.members {
		if s.hasMember(m) {
			return true
		}
	}
	for _, c := range o.children {
		if i, found := slices.BinarySearchFunc(s.children, c.pe, compareNode); found && s.children[i].set.Overlaps(c.set) {
			return true
		}
	}
	return false
}

// CoveredBy reports whether every path of s is in a or in b: whether
// s.Difference(a).Difference(b) would be empty, without building it.
func (s *Set) CoveredBy(a, b *Set) bool {
	if s.Empty() {
		return true
	}
	for _, m := range s.members {
		if !a.hasMember(m) && !b.hasMember(m) {
			return false
		}
	}
	for _, c := range s.children {
		if !c.set.CoveredBy(a.descend(c.pe), b.descend(c.pe)) {
			return false
		}
	}
	return true
}

// TouchedBy reports whether o holds a path of s or a member above one:
// whether s.RecursiveDifference(o) would drop anything.
func (s *Set) TouchedBy(o *Set) bool {
	if s.Empty() || o.Empty() {
		return false
	}
	for _, m := range o.members {
		if s.hasMember(m) {
			return true
		}
		if _, found := slices.BinarySearchFunc(s.children, m, compareNode); found {
			return true
		}
	}
	for _, c := range o.children {
		if i, found := slices.BinarySearchFunc(s.children, c.pe, compareNode); found && s.children[i].set.TouchedBy(c.set) {
			return true
		}
	}
	return false
}

// Difference returns the paths in s that are not in o. Removing a member
// does not remove the paths below it (RecursiveDifference does).
func (s *Set) Difference(o *Set) *Set {
	return s.difference(o, false)
}

// RecursiveDifference returns the paths of s that neither are in o nor lie
// below a member of o.
func (s *Set) RecursiveDifference(o *Set) *Set {
	return s.difference(o, true)
}

func (s *Set) difference(o *Set, recursive bool) *Set {
	if o.Empty() {
		return s // nothing to take away: shared (set_share.go)
	}
	out := &Set{members: differenceOfElements(s.elems(), o.elems())}
	for _, c := range s.nodes() {
		if recursive && o.hasMember(c.pe) {
			continue
		}
		if d := c.set.difference(o.descend(c.pe), recursive); !d.Empty() {
			out.children = append(out.children, setNode{c.pe, d})
		}
	}
	return out
}

func (s *Set) hasMember(pe PathElement) bool {
	if s == nil {
		return false
	}
	_, found := slices.BinarySearchFunc(s.members, pe, PathElement.Compare)
	return found
}

// Leaves returns the members that have no paths below them: the fields
// owned as a whole, without the list elements and maps that contain owned
// fields.
func (s *Set) Leaves() *Set {
	out := &Set{}
	for _, m := range s.elems() {
		if _, parent := slices.BinarySearchFunc(s.nodes(), m, compareNode); !parent {
			out.members = append(out.members, m)
		}
	}
	for _, c := range s.nodes() {
		if l := c.set.Leaves(); !l.Empty() {
			out.children = append(out.children, setNode{c.pe, l})
		}
	}
	return out
}

// Copy returns a deep copy (path elements share their immutable values).
func (s *Set) Copy() *Set {
	out := &Set{members: slices.Clone(s.elems())}
	for _, c := range s.nodes() {
		out.children = append(out.children, setNode{c.pe, c.set.Copy()})
	}
	return out
}

// All calls f with every path of the set in order (members of a level
// before the paths below it); the path is reused, copy it to keep it.
func (s *Set) All(f func(Path)) { s.walk(nil, f) }

func (s *Set) walk(prefix Path, f func(Path)) {
	for _, m := range s.elems() {
		f(append(prefix, m))
	}
	for _, c := range s.nodes() {
		c.set.walk(append(prefix, c.pe), f)
	}
}

// Paths lists the set's paths, each its own copy.
func (s *Set) Paths() []Path {
	var out []Path
	s.All(func(p Path) { out = append(out, p.Copy()) })
	return out
}

// String lists the paths one per line, as SMD's Set.String does.
func (s *Set) String() string {
	var b strings.Builder
	s.All(func(p Path) {
		b.WriteString(p.String())
		b.WriteByte('\n')
	})
	return b.String()
}

func (s *Set) elems() []PathElement {
	if s == nil {
		return nil
	}
	return s.members
}

func (s *Set) nodes() []setNode {
	if s == nil {
		return nil
	}
	return s.children
}

func compareAt(a []setNode, i int, b []setNode, j int) int {
	switch {
	case i >= len(a):
		return 1
	case j >= len(b):
		return -1
	}
	return a[i].pe.Compare(b[j].pe)
}

// mergeElements walks two sorted lists and keeps the elements only in a,
// in both, or only in b as asked.
func mergeElements(a, b []PathElement, onlyA, both, onlyB bool) []PathElement {
	var out []PathElement
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var c int
		switch {
		case i >= len(a):
			c = 1
		case j >= len(b):
			c = -1
		default:
			c = a[i].Compare(b[j])
		}
		switch {
		case c < 0:
			if onlyA {
				out = append(out, a[i])
			}
			i++
		case c > 0:
			if onlyB {
				out = append(out, b[j])
			}
			j++
		default:
			if both {
				out = append(out, a[i])
			}
			i, j = i+1, j+1
		}
	}
	return out
}
