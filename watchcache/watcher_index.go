package watchcache

import "kubeloop/api"

// Skip on a first reading: this file only decides which watchers an event
// is offered to, and a plain map of all watchers gives the same answers.
//
// Every kubelet watches the pods bound to it (fieldSelector
// spec.nodeName=<node>; Kubernetes' kubelets also watch their own Node,
// metadata.name=<node>, which ours read with a GET instead). With one
// map of all watchers, each pod event is checked against every kubelet's
// filter, under the cache's lock: with 1000 nodes and 30 pods each, some
// 10^8 filter calls for one scale-up, all serialised. Kubernetes indexes
// such watchers by the value they require (cacher.go: indexedWatchers,
// with the registry's TriggerFunc, e.g. pod.NodeNameTriggerFunc), so an
// event reaches only the watchers of its object's old and new node, plus
// the watchers that select nothing on that field. We do the same, with the
// field chosen per kind below. BenchmarkDispatch1000NodeWatchers shows the
// difference.

// triggerField is the field whose exact-match watchers are indexed, by
// kind: Kubernetes' TriggerFunc of the pod registry (spec.nodeName) and of
// the node registry (metadata.name). "" means no index.
func triggerField(info *api.ResourceInfo) string {
	if info.Group != "" {
		return ""
	}
	switch info.Kind {
	case "Pod":
		return "spec.nodeName"
	case "Node":
		return "metadata.name"
	}
	return ""
}

// indexedWatchers holds the watchers of one Cacher. A watcher whose field
// selector requires field = v is in byValue[v] only; every other watcher
// is in unindexed. Each watcher is in exactly one of the maps.
type indexedWatchers struct {
	field     string
	unindexed map[int]*cacheWatcher
	byValue   map[string]map[int]*cacheWatcher
	count     int
}

func newIndexedWatchers(field string) *indexedWatchers {
	return &indexedWatchers{field: field, unindexed: map[int]*cacheWatcher{}, byValue: map[string]map[int]*cacheWatcher{}}
}

// indexValueFor is the value w is indexed under, if any.
func (iw *indexedWatchers) indexValueFor(pred api.FieldSelector) (string, bool) {
	if iw.field == "" || pred == nil {
		return "", false
	}
	return pred.RequiresExactMatch(iw.field)
}

func (iw *indexedWatchers) add(w *cacheWatcher) {
	iw.count++
	if !w.indexed {
		iw.unindexed[w.id] = w
		return
	}
	m := iw.byValue[w.indexValue]
	if m == nil {
		m = map[int]*cacheWatcher{}
		iw.byValue[w.indexValue] = m
	}
	m[w.id] = w
}

// get returns the registered watcher with w's id and index value.
func (iw *indexedWatchers) get(w *cacheWatcher) *cacheWatcher {
	if !w.indexed {
		return iw.unindexed[w.id]
	}
	return iw.byValue[w.indexValue][w.id]
}

func (iw *indexedWatchers) delete(w *cacheWatcher) {
	if iw.get(w) != w {
		return
	}
	iw.count--
	if !w.indexed {
		delete(iw.unindexed, w.id)
		return
	}
	m := iw.byValue[w.indexValue]
	delete(m, w.id)
	if len(m) == 0 {
		delete(iw.byValue, w.indexValue)
	}
}

// forEvent calls fn for every watcher that may see ev: the unindexed ones
// and those indexed under the field's value in the new or previous state.
// The watcher's own filter still decides; the index only skips watchers
// whose filter is certain to say no.
func (iw *indexedWatchers) forEvent(ev *watchCacheEvent, fn func(*cacheWatcher)) {
	for _, w := range iw.unindexed {
		fn(w)
	}
	if iw.field == "" {
		return
	}
	// An absent field reads as "", as in FieldRequirement.matches.
	cur := ev.ObjFields.get(iw.field)
	for _, w := range iw.byValue[cur] {
		fn(w)
	}
	if ev.hasPrev() {
		if prev := ev.PrevObjFields.get(iw.field); prev != cur {
			for _, w := range iw.byValue[prev] {
				fn(w)
			}
		}
	}
}

// each calls fn for every watcher.
func (iw *indexedWatchers) each(fn func(*cacheWatcher)) {
	for _, w := range iw.unindexed {
		fn(w)
	}
	for _, m := range iw.byValue {
		for _, w := range m {
			fn(w)
		}
	}
}
