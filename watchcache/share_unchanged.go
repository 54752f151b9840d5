package watchcache

// Skip on a first reading: a memory saving. The cache is complete without
// it; each object it takes in then keeps every part it was decoded with.
//
// What it saves: the ring keeps several versions of each object (a pod
// in a scale-up has three: created, bound, Running), and a version differs
// from the one before in a few fields: the binding sets spec.nodeName, a
// status write changes status, and the spec, labels, owner and most
// managedFields sets stay as they were. Pods of one ReplicaSet differ from
// each other in little more than their names. Here each object the cache
// takes in is compared, part by part, with the version it replaces (or,
// for a new object, with the object added before it), and every part
// that is equal is replaced by the older object's: equal parts are then
// held once. At 30 pods on 1000 nodes (BenchmarkScaleGrowth) that is
// docs/performance.md's session 7 row "watch cache shares unchanged
// parts".
//
// It is sound because objects in the cache are never changed once stored
// (watchers, lists and the encode memo share them; writers get a
// DeepCopy, cacher_read.go: cachedCopy), and the object being shared is
// the cache's own and not yet visible to anyone.

import (
	"kubeloop/api"
	"kubeloop/internal/sharing"
)

// partSharer remembers the last object added, whose parts a new object
// shares. Cacher.mu guards it, with the rest of watchCache.
type partSharer struct {
	lastAdded api.Object
	sharer    sharing.Sharer
}

// share makes obj share its equal parts with prev, the version it
// replaces, or, when it has none, with the object added before it.
func (p *partSharer) share(obj, prev api.Object) {
	older := prev
	if older == nil {
		older, p.lastAdded = p.lastAdded, obj
	}
	if older != nil {
		p.sharer.Share(obj, older)
	}
}
