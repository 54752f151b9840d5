package scheduler

import (
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func snapshotNames(s *Snapshot) []string {
	var out []string
	for _, n := range s.NodeInfos() {
		out = append(out, n.Node().Name)
	}
	return out
}

func cacheNode(name string) *api.Node { return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}} }

func boundPod(uid, node string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: uid, UID: uid}}
	p.Spec.NodeName = node
	return p
}

// The snapshot's node list stays sorted and current whether a change adds
// a pod (copied in place), adds or removes a node (list rebuilt), or gives
// a pod-only NodeInfo its node.
func TestSnapshotFollowsPodAndNodeChanges(t *testing.T) {
	c := newCache()
	s := NewEmptySnapshot()
	c.AddNode(cacheNode("b"))
	c.AddNode(cacheNode("a"))
	c.UpdateSnapshot(s)
	require.Equal(t, []string{"a", "b"}, snapshotNames(s))

	require.NoError(t, c.AddPod(boundPod("p1", "b")))
	c.UpdateSnapshot(s)
	b, ok := s.Get("b")
	require.True(t, ok)
	require.Len(t, b.Pods, 1)
	require.Len(t, s.NodeInfos()[1].Pods, 1, "the list sees the pod without a rebuild")

	require.NoError(t, c.AddPod(boundPod("p2", "c")), "a pod of a node not seen yet")
	c.UpdateSnapshot(s)
	require.Equal(t, []string{"a", "b"}, snapshotNames(s), "no node object: not schedulable")
	c.AddNode(cacheNode("c"))
	c.UpdateSnapshot(s)
	require.Equal(t, []string{"a", "b", "c"}, snapshotNames(s))
	require.Len(t, s.NodeInfos()[2].Pods, 1)

	c.RemoveNode(cacheNode("a"))
	c.RemoveNode(cacheNode("b"))
	c.UpdateSnapshot(s)
	require.Equal(t, []string{"c"}, snapshotNames(s), "a removed without pods, b still has a pod but no node")

	require.NoError(t, c.RemovePod(boundPod("p2", "c")))
	c.UpdateSnapshot(s)
	require.Empty(t, s.NodeInfos()[0].Pods)
}
