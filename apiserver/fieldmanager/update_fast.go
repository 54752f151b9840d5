package fieldmanager

// Skip on a first reading: a speed-up. Most updates in a running cluster
// are a writer changing fields it already owns (a kubelet's status
// heartbeat, a lease renewal, a controller's replicas): no ownership
// moves and only the writer's time changes. Written plainly,
// updateManaged would still rebuild every entry's set (each Difference
// copies the set) and the writer's (a Union), and Encode would then write
// them all out again, as would decodeLiveOrNew parse the managedFields a
// client sent back unchanged. These three checks keep the very sets
// instead, so managed_memo.go writes their FieldsV1 as it was stored, and
// the client's copy is not parsed:
//
//   - an entry that owns none of the changed or removed fields keeps its set;
//   - a writer that owned already everything it gained, and lost nothing,
//     keeps its set (only its time changes, as in Kubernetes); one that
//     gains new fields has them added to its set, which is not first
//     stripped of what it changed;
//   - managedFields sent equal to the stored ones are the stored ones.
//
// Two more skip copies of a whole set on every write: a union with an
// empty set, and dropping reset fields (status) from a set that has none.
//
// BenchmarkUpdateStatus and BenchmarkUpdatePod (apiserver/fieldmanager),
// BenchmarkCreateUpdateManagedFields (apiserver) measure it;
// TestSameOwnershipKeepsTheStoredBytes checks the bytes stay.

import (
	"bytes"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// withoutFields is s.Difference(changed).Difference(removed), s itself
// when it has none of them.
func withoutFields(s, changed, removed *fieldpath.Set) *fieldpath.Set {
	if !s.Overlaps(changed) && !s.Overlaps(removed) {
		return s
	}
	return s.Difference(changed).Difference(removed)
}

// regainsAllItLoses reports whether a writer that owned before loses, by
// its own write, only fields it gains back: none of before was removed or
// is stripped. Its set after the write is then before ∪ gained, one union
// instead of a difference and a union over its whole set.
func regainsAllItLoses(before, removed *fieldpath.Set) bool {
	return !before.Overlaps(removed) && !before.Overlaps(stripFields)
}

// keepsOwnership reports whether a writer that owned before and whose
// write changed and removed these fields owns exactly before afterwards:
// it lost no removed field and no stripped one, and gained nothing new.
func keepsOwnership(before, changed, removed *fieldpath.Set) bool {
	return regainsAllItLoses(before, removed) && changed.CoveredBy(stripFields, before)
}

// union is a.Union(b) without the copy when one of them is empty (sets
// are never changed in place, so sharing one is safe).
func union(a, b *fieldpath.Set) *fieldpath.Set {
	switch {
	case a.Empty():
		return b
	case b.Empty():
		return a
	}
	return a.Union(b)
}

// touches reports whether s has a path that is in reset or lies below one
// of its members: whether s.RecursiveDifference(reset) would drop any.
func touches(s, reset *fieldpath.Set) bool { return s.TouchedBy(reset) }

// keepSet gives self the set its previous entry had before this write,
// with the bytes that entry was decoded from.
func keepSet(self, prev *Entry, before *fieldpath.Set) {
	self.raw, self.rawOf = prev.raw, prev.rawOf
	self.Fields = before
}

// sameEntries reports whether two managedFields lists are equal, entry by
// entry and byte by byte.
func sameEntries(a, b []api.ManagedFieldsEntry) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Manager != y.Manager || x.Operation != y.Operation || x.APIVersion != y.APIVersion ||
			x.FieldsType != y.FieldsType || x.Subresource != y.Subresource ||
			(x.Time == nil) != (y.Time == nil) || compareSeconds(x.Time, y.Time) != 0 ||
			(x.FieldsV1 == nil) != (y.FieldsV1 == nil) ||
			(x.FieldsV1 != nil && !bytes.Equal(x.FieldsV1.Raw, y.FieldsV1.Raw)) {
			return false
		}
	}
	return true
}
