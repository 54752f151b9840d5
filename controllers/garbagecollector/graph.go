package garbagecollector

import (
	"fmt"
	"strings"

	"kubeloop/api"
)

// objectReference identifies one object for the garbage collector: an
// owner reference (kind, name, UID) plus the namespace, which an owner
// reference leaves implicit (an owner lives in its dependent's namespace,
// or is cluster-scoped).
type objectReference struct {
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
	UID        string
}

func (r objectReference) String() string {
	return fmt.Sprintf("%s/%s, namespace: %s, name: %s, uid: %s", r.APIVersion, r.Kind, r.Namespace, r.Name, r.UID)
}

// group is the API group of the reference's apiVersion ("" for "v1").
func (r objectReference) group() string {
	if i := strings.Index(r.APIVersion, "/"); i >= 0 {
		return r.APIVersion[:i]
	}
	return ""
}

// identityOf is the reference to obj itself.
func identityOf(info *api.ResourceInfo, obj api.Object) objectReference {
	m := obj.GetObjectMeta()
	return objectReference{APIVersion: info.GroupVersion(), Kind: info.Kind, Namespace: m.Namespace, Name: m.Name, UID: m.UID}
}

// ownerIdentity is the reference to an owner of a dependent in namespace.
// For a cluster-scoped owner the namespace is dropped when the kind is
// resolved (see resolve).
func ownerIdentity(ref api.OwnerReference, namespace string) objectReference {
	return objectReference{APIVersion: ref.APIVersion, Kind: ref.Kind, Namespace: namespace, Name: ref.Name, UID: ref.UID}
}

// node is one object in the dependency graph. Every field is guarded by
// the graph's lock.
type node struct {
	identity objectReference
	// dependents point back at this node through an owner reference.
	dependents map[*node]struct{}
	// owners are the object's owner references as last observed.
	owners []api.OwnerReference
	// beingDeleted: the object has a deletionTimestamp.
	beingDeleted bool
	// deletingDependents: the object is being deleted in the foreground (it
	// has the foregroundDeletion finalizer); it goes once its blocking
	// dependents are gone.
	deletingDependents bool
	// virtual: the node was made because a dependent names it as owner, but
	// no informer has shown us the object (yet). It may not exist at all.
	virtual bool
}

func newNode(id objectReference) *node {
	return &node{identity: id, dependents: map[*node]struct{}{}}
}

// graph is the GraphBuilder's uidToNode: every object the informers have
// shown us, plus virtual nodes for owners we have only heard of, linked
// owner → dependents by owner-reference UID.
//
// Invariant: n is in owner.dependents iff n is in uidToNode and one of
// n.owners has owner's UID.
type graph struct {
	uidToNode map[string]*node
}

func newGraph() *graph { return &graph{uidToNode: map[string]*node{}} }

// insertNode adds n and links it under each of its owners, making virtual
// nodes for owners not in the graph. It returns those new virtual owners:
// the caller queues them, so a live GET can find out whether they exist.
func (g *graph) insertNode(n *node) []*node {
	g.uidToNode[n.identity.UID] = n
	return g.addDependentToOwners(n, n.owners)
}

func (g *graph) addDependentToOwners(n *node, owners []api.OwnerReference) []*node {
	var virtual []*node
	for _, ref := range owners {
		owner, ok := g.uidToNode[ref.UID]
		if !ok {
			owner = newNode(ownerIdentity(ref, n.identity.Namespace))
			owner.virtual = true
			g.uidToNode[ref.UID] = owner
			virtual = append(virtual, owner)
		}
		owner.dependents[n] = struct{}{}
	}
	return virtual
}

func (g *graph) removeDependentFromOwners(n *node, owners []api.OwnerReference) {
	for _, ref := range owners {
		if owner, ok := g.uidToNode[ref.UID]; ok {
			delete(owner.dependents, n)
		}
	}
}

// removeNode takes n out of the graph and out of its owners' dependents.
// n's own dependents keep pointing at a UID that is no longer there; the
// caller queues them so attemptToDelete finds their owner gone.
func (g *graph) removeNode(n *node) {
	delete(g.uidToNode, n.identity.UID)
	g.removeDependentFromOwners(n, n.owners)
}

// dependentsOf returns a snapshot of n's dependents.
func (g *graph) dependentsOf(n *node) []*node {
	out := make([]*node, 0, len(n.dependents))
	for d := range n.dependents {
		out = append(out, d)
	}
	return out
}

// blockingDependents are the dependents whose reference to n has
// blockOwnerDeletion=true: a foreground deletion of n waits for them.
func (g *graph) blockingDependents(n *node) []*node {
	var out []*node
	for d := range n.dependents {
		for _, ref := range d.owners {
			if ref.UID == n.identity.UID && ref.BlockOwnerDeletion != nil && *ref.BlockOwnerDeletion {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// referencesDiffs compares two lists of owner references by UID: added and
// removed references, and those whose blockOwnerDeletion changed.
func referencesDiffs(old, new []api.OwnerReference) (added, removed, changed []api.OwnerReference) {
	oldByUID := map[string]api.OwnerReference{}
	for _, r := range old {
		oldByUID[r.UID] = r
	}
	for _, r := range new {
		o, ok := oldByUID[r.UID]
		if !ok {
			added = append(added, r)
			continue
		}
		if isBlocking(o) != isBlocking(r) {
			changed = append(changed, o)
		}
		delete(oldByUID, r.UID)
	}
	for _, r := range old {
		if _, gone := oldByUID[r.UID]; gone {
			removed = append(removed, r)
		}
	}
	return added, removed, changed
}

func isBlocking(r api.OwnerReference) bool {
	return r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion
}

func hasFinalizer(m *api.ObjectMeta, finalizer string) bool {
	for _, f := range m.Finalizers {
		if f == finalizer {
			return true
		}
	}
	return false
}
