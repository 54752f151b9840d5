package watchcache

// Skip on a first reading: a memory saving. Without it (supersede doing
// nothing) every event keeps its objects whole, as Kubernetes' watch cache
// does, and object() and prevObject() return Object and PrevObject.
//
// What it saves: the ring keeps every version of an object since its
// oldest event, and a pod in a scale-up has three (created, bound,
// Running). Once a newer version of a key arrives, the older one is needed
// only when a watch replays the events that carry it. Share
// (share_unchanged.go) already made the two versions hold their equal
// parts once, but each version is still a struct of its own: 1.2 KB for a
// Pod before any of its parts. Here the older version is kept as the
// fields in which it differs from the newer one (internal/sharing,
// Delta: for a binding, the resourceVersion, nodeName and a condition),
// and built again from the newer one when a watch replays it. At 30 pods
// on 200 nodes (BenchmarkScaleGrowth -scale.heapprofile) the watch cache's
// objects and events went from 59.5 to 49.1 MB with it
// (docs/performance.md, "Session 8: the superseded versions").
//
// It keeps behaviour: a replayed object is deeply equal to the one the
// event carried (only its address differs, and no one may change an
// event's object anyway), and the labels and fields selectors look at
// are kept beside each version, so filtering needs no object. The cost is
// paid by replays, a few microseconds per older version; a key changed
// many times keeps every maxBehind+1-th version whole, so no replay builds
// an object from more than maxBehind differences.

import "kubeloop/api"

// maxBehind bounds how many versions of a key may be rebuilt through one
// whole version.
const maxBehind = 4

// supersede is called by processEvent when ev brings a newer version of a
// key the store held; ev.PrevObject is that older version. It keeps
// ev.PrevObject as its differences from ev.Object, and the event that
// brought the older version, if the ring still has it, reads its object
// through ev.
func (w *watchCache) supersede(ev *watchCacheEvent) {
	older := ev.PrevObject
	brought := w.ring.broughtBy(ev.Key, older)
	if brought != nil && brought.behind >= maxBehind {
		return // brought stays whole; the versions behind it rebuild from it
	}
	d := w.sharer.sharer.Diff(older, ev.Object)
	if d == nil {
		return
	}
	ev.PrevObject, ev.prevDelta = nil, d
	ev.behind = 1
	if brought != nil {
		brought.Object, brought.next = nil, ev
		ev.behind = brought.behind + 1
	}
}

// broughtBy returns the event in the ring whose object is obj, the current
// version of key, or nil if the ring has dropped it (or never had it: the
// version came with a list).
func (r *eventRing) broughtBy(key string, obj api.Object) *watchCacheEvent {
	rv, err := parseResourceVersion(obj.GetObjectMeta().ResourceVersion)
	if err != nil || rv == 0 {
		return nil
	}
	n := r.len()
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if r.at(mid).ResourceVersion < rv {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < n {
		if ev := r.at(lo); ev.ResourceVersion == rv && ev.Key == key && ev.Object == obj {
			return ev
		}
	}
	return nil
}

// object is the event's new state (Object, or rebuilt from the event that
// superseded it).
func (ev *watchCacheEvent) object() api.Object {
	if ev.Object != nil || ev.next == nil {
		return ev.Object
	}
	return ev.next.prevObject()
}

// prevObject is the state before the event (PrevObject, or rebuilt from
// object()); nil for ADDED.
func (ev *watchCacheEvent) prevObject() api.Object {
	if ev.prevDelta == nil {
		return ev.PrevObject
	}
	return ev.prevDelta.Apply(ev.object()).(api.Object)
}

// hasPrev says the event has a state before it (it is not an ADDED).
func (ev *watchCacheEvent) hasPrev() bool { return ev.PrevObject != nil || ev.prevDelta != nil }
