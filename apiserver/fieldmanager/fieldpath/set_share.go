package fieldpath

// Skip on a first reading: a speed-up. Difference and Union could copy
// every level of the sets they read (Union still builds a new set only
// along the paths o adds to, returning s where it adds nothing); on a pod's managedFields a write takes
// a small set (what changed) from a large one (its creator's) and unites
// small sets with large ones, and the copies were a third of what the
// field manager allocated (BenchmarkUpdatePod in apiserver/fieldmanager).
// Since a set is never changed once built, the result shares what is
// unchanged instead: a subtree the other set does not touch, a member list
// nothing is taken from. TestSharedSetsAreNotChangedByLaterOperations
// checks that no operation writes into its operands.

// Below is Descend without allocating an empty set for a missing child:
// nil then (a nil set is empty).
func (s *Set) Below(pe PathElement) *Set { return s.descend(pe) }

// descend is Descend without allocating an empty set for a missing child.
func (s *Set) descend(pe PathElement) *Set {
	if s == nil {
		return nil
	}
	for lo, hi := 0, len(s.children); lo < hi; {
		mid := (lo + hi) / 2
		switch c := s.children[mid].pe.Compare(pe); {
		case c == 0:
			return s.children[mid].set
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return nil
}

// differenceOfElements is the elements of a not in b, a itself when b
// takes none away.
func differenceOfElements(a, b []PathElement) []PathElement {
	if len(b) == 0 {
		return a
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := a[i].Compare(b[j]); {
		case c == 0:
			return mergeElements(a, b, true, false, false)
		case c < 0:
			i++
		default:
			j++
		}
	}
	return a
}

// unionOfElements is the elements of a or b, a itself when b adds none.
func unionOfElements(a, b []PathElement) []PathElement {
	i, j := 0, 0
	for j < len(b) {
		if i >= len(a) {
			return mergeElements(a, b, true, true, true)
		}
		switch c := a[i].Compare(b[j]); {
		case c == 0:
			i, j = i+1, j+1
		case c < 0:
			i++
		default:
			return mergeElements(a, b, true, true, true)
		}
	}
	return a
}

// ownChildren is the children Union is building, made from the first n
// of s's (all unchanged) when it has none yet.
func ownChildren(children, sc []setNode, n int) []setNode {
	if children != nil {
		return children
	}
	return append(make([]setNode, 0, len(sc)+1), sc[:n]...)
}
