package watchcache

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"kubeloop/api"
	"kubeloop/internal/sharing"
	"kubeloop/store"
)

// storeElement is one cached object with the labels and fields selectors
// look at, computed once when the object arrives so filtering is cheap.
// Fields are the values of ResourceInfo.ObjectFields, kept more compactly
// than as a map (field_set.go).
type storeElement struct {
	Key    string
	Object api.Object
	Labels map[string]string
	Fields fieldSet
}

// watchCacheEvent is one change as the cache saw it: the new state, the
// state before (so a watcher can tell whether the object entered or left its
// selector) and the revision.
type watchCacheEvent struct {
	Type            api.EventType
	Key             string
	Object          api.Object
	ObjLabels       map[string]string
	ObjFields       fieldSet
	PrevObject      api.Object // nil for ADDED
	PrevObjLabels   map[string]string
	PrevObjFields   fieldSet
	ResourceVersion uint64
	RecordTime      time.Time

	// prevAtRV is PrevObject with this event's resourceVersion: what a
	// watcher receives as DELETED when the object leaves its selector.
	// Built on first need, under Cacher.mu, and then shared.
	prevAtRV api.Object

	// Once a newer version of the key arrives, Object and PrevObject may
	// be held compactly instead, and are then read through object() and
	// prevObject(): next is the event that superseded Object, prevDelta
	// is PrevObject as its differences from Object (superseded.go).
	next      *watchCacheEvent
	prevDelta *sharing.Delta
	// behind counts the older versions of the key rebuilt through this
	// event's Object.
	behind int
}

// watchCache is the in-memory state: the current objects, the recent events
// and the revision they reflect. It has no lock; Cacher.mu guards it.
type watchCache struct {
	info  *api.ResourceInfo
	store map[string]*storeElement
	ring  eventRing
	// resourceVersion: every event up to it has been applied.
	resourceVersion uint64
	// listResourceVersion is the RV of the last re-list: while the ring has
	// dropped nothing, a watch from any RV >= it can be served.
	listResourceVersion uint64
	// sharer lets a new version hold the parts it has in common with the
	// one before (share_unchanged.go).
	sharer partSharer
	// fieldNames are shared by the objects' field sets (field_set.go).
	fieldNames fieldNames
}

func newWatchCache(info *api.ResourceInfo, capacity int) *watchCache {
	return &watchCache{info: info, store: map[string]*storeElement{}, ring: newEventRing(capacity)}
}

func (w *watchCache) element(key string, obj api.Object) *storeElement {
	return &storeElement{
		Key:    key,
		Object: obj,
		Labels: obj.GetObjectMeta().Labels,
		Fields: w.fieldNames.newFieldSet(w.info, obj),
	}
}

// key is where obj is kept in the store.
func (w *watchCache) key(obj api.Object) string {
	m := obj.GetObjectMeta()
	return w.info.Key(m.Namespace, m.Name)
}

// setTypeMeta stamps apiVersion and kind on an object the cache now owns:
// every object a watcher receives must carry them.
func (w *watchCache) setTypeMeta(obj api.Object) {
	tm := obj.GetTypeMeta()
	if tm.Kind == "" {
		tm.APIVersion, tm.Kind = w.info.GroupVersion(), w.info.Kind
	}
}

// replace loads a fresh list: the state is rebuilt and the ring emptied.
func (w *watchCache) replace(objs []api.Object, rv uint64) {
	w.store = make(map[string]*storeElement, len(objs))
	for _, o := range objs {
		w.setTypeMeta(o)
		e := w.element(w.key(o), o)
		w.store[e.Key] = e
	}
	w.ring.reset()
	w.resourceVersion, w.listResourceVersion = rv, rv
}

// processEvent applies one change from etcd and records it in the ring.
func (w *watchCache) processEvent(typ api.EventType, obj api.Object, rv uint64, now time.Time) *watchCacheEvent {
	w.setTypeMeta(obj)
	key := w.key(obj)
	prev := w.store[key]
	var prevObj api.Object
	if prev != nil {
		// The key the cache already holds, not a second copy of it.
		key, prevObj = prev.Key, prev.Object
	}
	// Before element: the element keeps obj's labels as shared.
	w.sharer.share(obj, prevObj)
	e := w.element(key, obj)
	ev := &watchCacheEvent{
		Type: typ, Key: e.Key, Object: obj, ObjLabels: e.Labels, ObjFields: e.Fields,
		ResourceVersion: rv, RecordTime: now,
	}
	if prev != nil {
		ev.PrevObject, ev.PrevObjLabels, ev.PrevObjFields = prev.Object, prev.Labels, prev.Fields
		w.supersede(ev) // superseded.go
	}
	if typ == api.Deleted {
		delete(w.store, e.Key)
	} else {
		w.store[e.Key] = e
	}
	w.ring.add(ev, now)
	w.resourceVersion = rv
	return ev
}

// oldestServable is the smallest N a watch "from N" can start at.
func (w *watchCache) oldestServable() uint64 {
	if !w.ring.evicted || w.ring.len() == 0 {
		return w.listResourceVersion
	}
	return w.ring.at(0).ResourceVersion - 1
}

// eventsSince returns the events after rv, or 410 Expired if some of them
// have been dropped (Kubernetes: getAllEventsSinceLocked).
func (w *watchCache) eventsSince(rv uint64) ([]*watchCacheEvent, error) {
	if oldest := w.oldestServable(); rv < oldest {
		return nil, api.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", rv, oldest))
	}
	return w.ring.since(rv), nil
}

// list returns the current objects under prefix that pass the filter,
// sorted by key.
func (w *watchCache) list(f filterFunc) []*storeElement {
	out := make([]*storeElement, 0, len(w.store))
	for _, e := range w.store {
		if f(e.Key, e.Labels, e.Fields) {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// filterFunc decides whether an object belongs to a watch or list.
type filterFunc func(key string, labels map[string]string, fields fieldSet) bool

// newFilter matches the prefix (the resource, or one namespace of it) and
// the predicate's selectors; nil or empty selectors match everything.
func newFilter(prefix string, pred store.SelectionPredicate) filterFunc {
	label, field := pred.Label, pred.Field
	if label != nil && label.Empty() {
		label = nil
	}
	if field != nil && field.Empty() {
		field = nil
	}
	return func(key string, labels map[string]string, fields fieldSet) bool {
		if !strings.HasPrefix(key, prefix) {
			return false
		}
		if label != nil && !label.Matches(labels) {
			return false
		}
		return field == nil || fields.matches(field)
	}
}

// watchEventFor turns a cache event into what a watcher with filter f sees,
// or ok=false if the change is invisible to it. A MODIFIED that moves the
// object into the selector is ADDED; out of it, DELETED with the old state
// at the new revision (Kubernetes: cacheWatcher.convertToWatchEvent).
func watchEventFor(ev *watchCacheEvent, f filterFunc) (api.WatchEvent, bool) {
	curPasses := ev.Type != api.Deleted && f(ev.Key, ev.ObjLabels, ev.ObjFields)
	prevPasses := ev.hasPrev() && f(ev.Key, ev.PrevObjLabels, ev.PrevObjFields)
	switch {
	case ev.Type == api.Deleted:
		// The DELETED object is the last state; the filter sees that state.
		if f(ev.Key, ev.ObjLabels, ev.ObjFields) {
			return api.WatchEvent{Type: api.Deleted, Object: ev.object()}, true
		}
	case curPasses && prevPasses:
		return api.WatchEvent{Type: api.Modified, Object: ev.object()}, true
	case curPasses:
		return api.WatchEvent{Type: api.Added, Object: ev.object()}, true
	case prevPasses:
		if ev.prevAtRV == nil {
			c := ev.prevObject().DeepCopyObject()
			c.GetObjectMeta().ResourceVersion = ev.object().GetObjectMeta().ResourceVersion
			ev.prevAtRV = c
		}
		return api.WatchEvent{Type: api.Deleted, Object: ev.prevAtRV}, true
	}
	return api.WatchEvent{}, false
}

// bookmarkObject is an empty object of the kind carrying only the revision
// (and the initial-events-end annotation when initialEventsEnd).
func bookmarkObject(info *api.ResourceInfo, rv uint64, initialEventsEnd bool) api.Object {
	o := info.New()
	tm := o.GetTypeMeta()
	tm.APIVersion, tm.Kind = info.GroupVersion(), info.Kind
	m := o.GetObjectMeta()
	m.ResourceVersion = fmt.Sprint(rv)
	if initialEventsEnd {
		m.Annotations = map[string]string{api.InitialEventsAnnotation: "true"}
	}
	return o
}
