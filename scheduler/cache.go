package scheduler

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"kubeloop/api"
	"kubeloop/scheduler/framework"
)

// Cache is the scheduler's picture of the cluster: one NodeInfo per node,
// holding the pods assigned to it, including the pods the scheduler has
// assumed onto a node but whose binding the informer has not yet shown.
// Without assumed pods, the next cycle would not see the resources the
// previous one just handed out, and would overcommit the node.
// Kubernetes: pkg/scheduler/backend/cache/cache.go, cacheImpl.
//
// A pod is assumed (AssumePod) before its binding is sent; the informer's
// add of the bound pod confirms it (AddPod); a failed binding forgets it
// (ForgetPod). Kubernetes expires unconfirmed assumptions after a TTL;
// its default TTL is now 0 (never), which is what we do.
type Cache struct {
	mu sync.Mutex
	// nodes is keyed by node name. A NodeInfo without a node holds pods
	// whose node is gone or not seen yet.
	nodes map[string]*framework.NodeInfo
	// podStates is keyed by pod UID: the pod as last added, and whether it
	// is only assumed.
	podStates map[string]*podState
	// generation is bumped on every change and stamped on the NodeInfo
	// that changed; changed lists the nodes newest change first
	// (cache_order.go).
	generation int64
	changed    changeList
}

type podState struct {
	pod     *api.Pod
	assumed bool
}

func newCache() *Cache {
	return &Cache{nodes: map[string]*framework.NodeInfo{}, podStates: map[string]*podState{}}
}

// nodeInfo returns the NodeInfo of name, creating an empty one, and
// stamps it with a new generation because the caller is about to change it.
func (c *Cache) nodeInfo(name string) *framework.NodeInfo {
	n, ok := c.nodes[name]
	if !ok {
		n = framework.NewNodeInfo()
		c.nodes[name] = n
	}
	c.touch(name, n)
	return n
}

// touch stamps n, the NodeInfo of name, with a new generation and moves it
// to the head of the change list.
func (c *Cache) touch(name string, n *framework.NodeInfo) {
	c.generation++
	n.Generation = c.generation
	c.changed.moveToHead(name)
}

// forget drops the NodeInfo of name; the snapshot notices by its count.
func (c *Cache) forget(name string) {
	delete(c.nodes, name)
	c.changed.remove(name)
	c.generation++
}

func (c *Cache) addPodLocked(pod *api.Pod, assumed bool) {
	c.nodeInfo(pod.Spec.NodeName).AddPodInfo(framework.NewPodInfo(pod))
	c.podStates[pod.UID] = &podState{pod: pod, assumed: assumed}
}

func (c *Cache) removePodLocked(pod *api.Pod) error {
	n, ok := c.nodes[pod.Spec.NodeName]
	if !ok {
		return fmt.Errorf("node %q of pod %s/%s is not in the cache", pod.Spec.NodeName, pod.Namespace, pod.Name)
	}
	if err := n.RemovePod(pod); err != nil {
		return err
	}
	c.touch(pod.Spec.NodeName, n)
	if len(n.Pods) == 0 && n.Node() == nil {
		c.forget(pod.Spec.NodeName)
	}
	delete(c.podStates, pod.UID)
	return nil
}

// AssumePod counts pod (whose spec.nodeName is the chosen node) on its
// node before the binding is written.
func (c *Cache) AssumePod(pod *api.Pod) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.podStates[pod.UID]; ok {
		return fmt.Errorf("pod %s/%s is in the cache already, cannot be assumed", pod.Namespace, pod.Name)
	}
	c.addPodLocked(pod, true)
	return nil
}

// ForgetPod undoes AssumePod after a failed binding.
func (c *Cache) ForgetPod(pod *api.Pod) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.podStates[pod.UID]
	if !ok {
		return nil // already removed by a delete event
	}
	if !st.assumed {
		return fmt.Errorf("pod %s/%s was added to node %q, not assumed; cannot forget it",
			pod.Namespace, pod.Name, st.pod.Spec.NodeName)
	}
	return c.removePodLocked(st.pod)
}

// IsAssumedPod reports whether pod is assumed and not yet confirmed.
func (c *Cache) IsAssumedPod(pod *api.Pod) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.podStates[pod.UID]
	return ok && st.assumed
}

// AddPod records an assigned pod seen by the informer. If it was assumed,
// this confirms it (on the node the API says, which wins).
func (c *Cache) AddPod(pod *api.Pod) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.podStates[pod.UID]; ok {
		// Assumed (confirmation) or already added (a relist): replace.
		if err := c.removePodLocked(st.pod); err != nil {
			return err
		}
	}
	c.addPodLocked(pod, false)
	return nil
}

// UpdatePod replaces an assigned pod.
func (c *Cache) UpdatePod(_, newPod *api.Pod) error { return c.AddPod(newPod) }

// RemovePod forgets an assigned pod that was deleted (or finished).
func (c *Cache) RemovePod(pod *api.Pod) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.podStates[pod.UID]
	if !ok {
		return nil
	}
	return c.removePodLocked(st.pod)
}

// AddNode and UpdateNode record the node object.
func (c *Cache) AddNode(node *api.Node) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nodeInfo(node.Name).SetNode(node)
}

// UpdateNode is AddNode.
func (c *Cache) UpdateNode(_, newNode *api.Node) { c.AddNode(newNode) }

// RemoveNode forgets the node; its pods stay counted until they go.
func (c *Cache) RemoveNode(node *api.Node) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.nodes[node.Name]
	if !ok {
		return
	}
	if len(n.Pods) == 0 {
		c.forget(node.Name)
		return
	}
	c.nodeInfo(node.Name).RemoveNode()
}

// Snapshot is the cache as of one scheduling cycle: the cycle reads it
// without locks while the informers keep changing the cache.
// Kubernetes: pkg/scheduler/backend/cache/snapshot.go.
type Snapshot struct {
	nodeInfoMap map[string]*framework.NodeInfo
	// nodeInfoList holds the NodeInfos that have a node, sorted by name.
	nodeInfoList []*framework.NodeInfo
	generation   int64
}

// NewEmptySnapshot is the snapshot before the first UpdateSnapshot.
func NewEmptySnapshot() *Snapshot {
	return &Snapshot{nodeInfoMap: map[string]*framework.NodeInfo{}}
}

// NodeInfos lists the nodes that can take pods.
func (s *Snapshot) NodeInfos() []*framework.NodeInfo { return s.nodeInfoList }

// Get returns one node's info.
func (s *Snapshot) Get(name string) (*framework.NodeInfo, bool) {
	n, ok := s.nodeInfoMap[name]
	return n, ok
}

// UpdateSnapshot brings s up to date, copying only the NodeInfos whose
// generation is newer than the snapshot: a cycle costs O(changed nodes),
// not O(cluster). A changed NodeInfo is copied over the snapshot's own, so
// the sorted list still points at it; the list is rebuilt and sorted only
// when nodes come or go (Kubernetes: updateAllLists). Sorting a thousand
// names every cycle was the scheduler's largest cost at 200 nodes.
func (c *Cache) UpdateSnapshot(s *Snapshot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s.generation == c.generation {
		return
	}
	relist := false
	// Newest change first: stop at the first node the snapshot has seen.
	for it := c.changed.head; it != nil; it = it.next {
		name, n := it.name, c.nodes[it.name]
		if n.Generation <= s.generation {
			break
		}
		clone := n.Clone()
		existing, ok := s.nodeInfoMap[name]
		if !ok {
			s.nodeInfoMap[name] = clone
			relist = true
			continue
		}
		if (existing.Node() == nil) != (clone.Node() == nil) {
			relist = true
		}
		*existing = *clone
	}
	// Only a removal leaves the snapshot with more nodes than the cache
	// (every node added since is in both by now): look for what went only
	// then (Kubernetes: removeDeletedNodesFromSnapshot).
	if len(s.nodeInfoMap) > len(c.nodes) {
		for name := range s.nodeInfoMap {
			if _, ok := c.nodes[name]; !ok {
				delete(s.nodeInfoMap, name)
				relist = true
			}
		}
	}
	if relist {
		s.nodeInfoList = s.nodeInfoList[:0]
		for _, n := range s.nodeInfoMap {
			if n.Node() != nil {
				s.nodeInfoList = append(s.nodeInfoList, n)
			}
		}
		slices.SortFunc(s.nodeInfoList, func(a, b *framework.NodeInfo) int {
			return strings.Compare(a.Node().Name, b.Node().Name)
		})
	}
	s.generation = c.generation
}

// Dump returns a copy of every NodeInfo and the UIDs of the assumed pods
// (tests, debugging; Kubernetes: Cache.Dump).
func (c *Cache) Dump() (map[string]*framework.NodeInfo, map[string]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	nodes := make(map[string]*framework.NodeInfo, len(c.nodes))
	for name, n := range c.nodes {
		nodes[name] = n.Clone()
	}
	assumed := map[string]bool{}
	for uid, st := range c.podStates {
		if st.assumed {
			assumed[uid] = true
		}
	}
	return nodes, assumed
}
