// Package sharing lets a new version of an object hold the parts it has in
// common with an older one: Sharer.Share compares the two part by part and
// replaces each pointer, slice, map and string of the new object that is
// equal to the older one's by the older one's, so that equal parts are
// held once. Sharer.Diff goes one step further for a version that a newer
// one has replaced: it keeps only the fields in which the older differs
// (a Delta), and Delta.Apply builds the older version again from the
// newer (delta.go; the watch cache's ring, watchcache/superseded.go).
//
// Skip on a first reading: it is a memory saving, used where many similar
// objects are kept at once and none of them is ever changed in place: the
// apiserver's watch cache (its ring keeps several versions of each object)
// and the informers of a whole cluster in one process
// (informers.SharedObjects). Nothing behaves differently without it.
//
// Why it is sound: after Share the new object is deeply equal to what it
// was, and it aliases the older one only where both say the same. Where
// objects are read-only once stored, as in those caches (writers DeepCopy
// first), nobody can tell. Where someone changes an object in place, the
// change shows in every object sharing that part: do not use it there.
//
// Kubernetes counterpart: none. Kubernetes' watch cache and informers keep
// each object as it was decoded; each component has a process of its own.
package sharing
