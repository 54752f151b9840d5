package garbagecollector

import (
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func ref(uid string, blocking bool) api.OwnerReference {
	return api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs-" + uid, UID: uid, BlockOwnerDeletion: &blocking}
}

func TestReferencesDiffsByUID(t *testing.T) {
	old := []api.OwnerReference{ref("a", true), ref("b", true), ref("c", false)}
	new := []api.OwnerReference{ref("a", true), ref("b", false), ref("d", true)}
	added, removed, changed := referencesDiffs(old, new)
	require.Equal(t, []string{"d"}, uidsOf(added))
	require.Equal(t, []string{"c"}, uidsOf(removed))
	require.Equal(t, []string{"b"}, uidsOf(changed))
	require.True(t, isBlocking(changed[0]), "changed reports the old reference, which was blocking")
}

func TestDeletionStartsWithFinalizerOnlyOnTheTransition(t *testing.T) {
	now := api.Now()
	live := &api.ObjectMeta{}
	deleting := &api.ObjectMeta{DeletionTimestamp: &now, Finalizers: []string{api.FinalizerOrphanDependents}}
	otherFinalizer := &api.ObjectMeta{DeletionTimestamp: &now, Finalizers: []string{"example.com/x"}}
	cases := []struct {
		name     string
		old, new *api.ObjectMeta
		want     bool
	}{
		{"first sight of a deletion in progress", nil, deleting, true},
		{"deletion starts", live, deleting, true},
		{"already deleting", deleting, deleting, false},
		{"not deleting", nil, live, false},
		{"deleting with another finalizer", live, otherFinalizer, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, deletionStartsWithFinalizer(tc.old, tc.new, api.FinalizerOrphanDependents))
		})
	}
}

func TestGraphLinksDependentsUnderVirtualOwnersAndUnlinksOnRemove(t *testing.T) {
	g := newGraph()
	pod := newNode(objectReference{APIVersion: "v1", Kind: "Pod", Namespace: "ns", Name: "p", UID: "p"})
	pod.owners = []api.OwnerReference{ref("rs", true), ref("other", false)}

	virtual := g.insertNode(pod)
	require.Len(t, virtual, 2, "owners never seen become virtual nodes")
	rs := g.uidToNode["rs"]
	require.True(t, rs.virtual)
	require.Equal(t, "ns", rs.identity.Namespace, "an owner lives in its dependent's namespace")
	require.Equal(t, []*node{pod}, g.blockingDependents(rs))
	require.Empty(t, g.blockingDependents(g.uidToNode["other"]), "a non-blocking reference does not block")

	g.removeNode(pod)
	require.NotContains(t, g.uidToNode, "p")
	require.Empty(t, rs.dependents)
}
