package trace

import (
	"sync"

	"kubeloop/api"
)

// ObjectEvent is an event about obj (an api.Object, or anything else, which
// leaves key and version empty), with its key, resourceVersion and
// controlling owner filled in. Call it only when On.
func ObjectEvent(step Step, hop Hop, component, resource string, obj any, detail string) Event {
	e := Event{Step: step, Hop: hop, Component: component, Resource: resource, Detail: detail}
	o, ok := obj.(api.Object)
	if !ok {
		return e
	}
	m := o.GetObjectMeta()
	name := m.Name
	if name == "" && m.GenerateName != "" {
		name = m.GenerateName + "*" // a create whose name the server picks
	}
	e.Key, e.ResourceVersion = m.Namespace+"/"+name, m.ResourceVersion
	if m.Namespace == "" {
		e.Key = name
	}
	for _, r := range m.OwnerReferences {
		if r.Controller != nil && *r.Controller {
			e.Owner = r.Kind + " " + m.Namespace + "/" + r.Name
		}
	}
	return e
}

// Related is a filter that takes the events of one object and of the
// objects it controls (a ReplicaSet and its pods). Requests about a pod name
// only the pod, not its owner, so the filter remembers every pod it has
// seen carry the owner and takes their events from then on.
type Related struct {
	resource, key, owner string

	mu    sync.Mutex
	owned map[string]bool
}

// NewRelated follows the object kind (resource) namespace/name.
func NewRelated(kind, resource, namespace, name string) *Related {
	key := namespace + "/" + name
	return &Related{resource: resource, key: key, owner: kind + " " + key, owned: map[string]bool{}}
}

// Match is the filter: pass it to Subscribe.
func (r *Related) Match(e *Event) bool {
	if e.Key == r.key && (e.Resource == r.resource || e.Resource == "") {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if e.Owner == r.owner {
		r.owned[e.Resource+" "+e.Key] = true
		return true
	}
	return r.owned[e.Resource+" "+e.Key]
}
