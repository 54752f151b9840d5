package framework

import (
	"fmt"

	"kubeloop/api"
)

// The requests counted for a container that asks for nothing, when
// scoring (not when filtering): without them, pods with no requests would
// all pile onto one node because each looks free. Kubernetes:
// pkg/scheduler/util/pod_resources.go, DefaultMilliCPURequest and
// DefaultMemoryRequest.
const (
	DefaultMilliCPURequest int64 = 100               // 0.1 core
	DefaultMemoryRequest   int64 = 200 * 1024 * 1024 // 200 MiB
)

// Resource is an amount of the resources the scheduler counts.
type Resource struct {
	MilliCPU int64
	Memory   int64
	// AllowedPodNumber is the node's "pods" allocatable; unused in requests.
	AllowedPodNumber int
}

// Add adds other to r.
func (r *Resource) Add(other Resource) {
	r.MilliCPU += other.MilliCPU
	r.Memory += other.Memory
}

// Sub subtracts other from r.
func (r *Resource) Sub(other Resource) {
	r.MilliCPU -= other.MilliCPU
	r.Memory -= other.Memory
}

// NewResource reads a ResourceList. A quantity that does not parse counts
// as zero: the apiserver validates quantities on the way in, so this only
// guards against a hand-written node status.
func NewResource(rl api.ResourceList) Resource {
	var r Resource
	for name, q := range rl {
		switch name {
		case api.ResourceCPU:
			if v, err := q.MilliValue(); err == nil {
				r.MilliCPU += v
			}
		case api.ResourceMemory:
			if v, err := q.Value(); err == nil {
				r.Memory += v
			}
		case api.ResourcePods:
			if v, err := q.Value(); err == nil {
				r.AllowedPodNumber += int(v)
			}
		}
	}
	return r
}

// PodInfo is a pod with its requests computed once, so the filters and the
// cache do not re-parse quantities for every node.
type PodInfo struct {
	Pod *api.Pod
	// Requests is the sum of the containers' requests.
	Requests Resource
	// NonZeroRequests is Requests with the defaults above standing in for
	// each container's missing cpu or memory request.
	NonZeroRequests Resource
}

// NewPodInfo computes a pod's requests. Kubernetes also adds init
// containers (the max of them), sidecars and pod overhead; kubeloop's pods
// have none of these.
func NewPodInfo(pod *api.Pod) *PodInfo {
	pi := &PodInfo{Pod: pod}
	for i := range pod.Spec.Containers {
		req := NewResource(pod.Spec.Containers[i].Resources.Requests)
		pi.Requests.Add(req)
		if _, ok := pod.Spec.Containers[i].Resources.Requests[api.ResourceCPU]; !ok {
			req.MilliCPU = DefaultMilliCPURequest
		}
		if _, ok := pod.Spec.Containers[i].Resources.Requests[api.ResourceMemory]; !ok {
			req.Memory = DefaultMemoryRequest
		}
		pi.NonZeroRequests.Add(req)
	}
	return pi
}

// NodeInfo is the scheduler's view of one node: the Node object and the
// pods assigned to it (bound, or assumed by the scheduler and not yet
// bound), with their requests summed. Kubernetes:
// pkg/scheduler/framework/types.go, NodeInfo.
type NodeInfo struct {
	node *api.Node

	// Pods assigned to the node, assumed ones included.
	Pods []*PodInfo
	// Requested sums the pods' requests; NonZeroRequested sums them with
	// defaults for what is missing (used by scoring only).
	Requested        Resource
	NonZeroRequested Resource
	// Allocatable is node.status.allocatable, parsed once.
	Allocatable Resource

	// Generation is bumped on every change, so a snapshot copies only the
	// NodeInfos that changed since the last cycle.
	Generation int64
}

// NewNodeInfo returns a NodeInfo holding pods and no node yet.
func NewNodeInfo(pods ...*api.Pod) *NodeInfo {
	n := &NodeInfo{}
	for _, p := range pods {
		n.AddPodInfo(NewPodInfo(p))
	}
	return n
}

// Node returns the node, or nil if only its pods are known (the node was
// deleted, or its pods arrived before it).
func (n *NodeInfo) Node() *api.Node {
	if n == nil {
		return nil
	}
	return n.node
}

// SetNode records the node and parses its allocatable.
func (n *NodeInfo) SetNode(node *api.Node) {
	n.node = node
	n.Allocatable = NewResource(node.Status.Allocatable)
}

// RemoveNode forgets the node but keeps its pods, which still hold
// resources until they are deleted.
func (n *NodeInfo) RemoveNode() { n.node = nil }

// AddPodInfo counts a pod on the node.
func (n *NodeInfo) AddPodInfo(pi *PodInfo) {
	n.Pods = append(n.Pods, pi)
	n.Requested.Add(pi.Requests)
	n.NonZeroRequested.Add(pi.NonZeroRequests)
}

// RemovePod stops counting the pod with pod's UID.
func (n *NodeInfo) RemovePod(pod *api.Pod) error {
	for i, pi := range n.Pods {
		if pi.Pod.UID != pod.UID {
			continue
		}
		n.Requested.Sub(pi.Requests)
		n.NonZeroRequested.Sub(pi.NonZeroRequests)
		last := len(n.Pods) - 1
		n.Pods[i] = n.Pods[last]
		n.Pods[last] = nil
		n.Pods = n.Pods[:last]
		return nil
	}
	return fmt.Errorf("pod %s/%s is not on node %q", pod.Namespace, pod.Name, n.name())
}

// Clone copies the NodeInfo for a snapshot. The node and the pods are
// shared (read-only); the slice is not, so the cache can keep changing.
func (n *NodeInfo) Clone() *NodeInfo {
	c := *n
	c.Pods = append([]*PodInfo(nil), n.Pods...)
	return &c
}

func (n *NodeInfo) name() string {
	if n.node == nil {
		return "<no node>"
	}
	return n.node.Name
}

// String is for logs and test failures.
func (n *NodeInfo) String() string {
	return fmt.Sprintf("NodeInfo{node:%s pods:%d requested:%+v allocatable:%+v}",
		n.name(), len(n.Pods), n.Requested, n.Allocatable)
}
