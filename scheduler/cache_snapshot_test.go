package scheduler

import (
	"fmt"
	"math/rand/v2"
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

// snapshotState is what a cycle reads from a snapshot: the schedulable
// nodes in order with their pods, and every NodeInfo by name.
func snapshotState(s *Snapshot) (list []string, all map[string]int) {
	for _, n := range s.NodeInfos() {
		list = append(list, fmt.Sprintf("%s:%d", n.Node().Name, len(n.Pods)))
	}
	all = map[string]int{}
	for name, n := range s.nodeInfoMap {
		all[name] = len(n.Pods)
	}
	return list, all
}

// However nodes and pods come and go between cycles, the snapshot kept up
// to date by visiting only the changed nodes equals one built from scratch.
func TestIncrementalSnapshotEqualsAFreshOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	c := newCache()
	s := NewEmptySnapshot()
	pods := map[string]*api.Pod{}
	for step := range 3000 {
		node := fmt.Sprintf("n%d", rng.IntN(12))
		switch rng.IntN(5) {
		case 0:
			c.AddNode(cacheNode(node))
		case 1:
			c.RemoveNode(cacheNode(node))
		case 2, 3:
			p := boundPod(fmt.Sprintf("p%d", step), node)
			require.NoError(t, c.AddPod(p))
			pods[p.UID] = p
		case 4:
			for uid, p := range pods { // any one
				require.NoError(t, c.RemovePod(p))
				delete(pods, uid)
				break
			}
		}
		if rng.IntN(3) == 0 {
			c.UpdateSnapshot(s)
			fresh := NewEmptySnapshot()
			c.UpdateSnapshot(fresh)
			gotList, gotAll := snapshotState(s)
			wantList, wantAll := snapshotState(fresh)
			require.Equal(t, wantList, gotList, "step %d: the schedulable nodes", step)
			require.Equal(t, wantAll, gotAll, "step %d: every NodeInfo", step)
		}
	}
}
