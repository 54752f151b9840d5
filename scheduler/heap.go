package scheduler

import (
	"container/heap"

	"kubeloop/workqueue"
)

// podHeap is a priority queue of pods keyed by "namespace/name", with
// update and delete by key. It is not safe for concurrent use: the
// scheduling queue guards it with its lock. Kubernetes:
// pkg/scheduler/backend/heap/heap.go.
type podHeap struct {
	items []*QueuedPodInfo
	index map[string]int // key → position in items
	less  func(a, b *QueuedPodInfo) bool
	depth workqueue.GaugeMetric
}

func newPodHeap(less func(a, b *QueuedPodInfo) bool, depth workqueue.GaugeMetric) *podHeap {
	if depth == nil {
		depth = noopGauge{}
	}
	return &podHeap{index: map[string]int{}, less: less, depth: depth}
}

// heap.Interface, on positions; the index follows every swap.
func (h *podHeap) Len() int           { return len(h.items) }
func (h *podHeap) Less(i, j int) bool { return h.less(h.items[i], h.items[j]) }
func (h *podHeap) Swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.index[h.items[i].key] = i
	h.index[h.items[j].key] = j
}
func (h *podHeap) Push(x any) {
	p := x.(*QueuedPodInfo)
	h.index[p.key] = len(h.items)
	h.items = append(h.items, p)
}
func (h *podHeap) Pop() any {
	last := len(h.items) - 1
	p := h.items[last]
	h.items[last] = nil
	h.items = h.items[:last]
	delete(h.index, p.key)
	return p
}

// AddOrUpdate inserts p, or replaces the entry with p's key.
func (h *podHeap) AddOrUpdate(p *QueuedPodInfo) {
	if i, ok := h.index[p.key]; ok {
		h.items[i] = p
		heap.Fix(h, i)
		return
	}
	heap.Push(h, p)
	h.depth.Inc()
}

// Get returns the entry with key.
func (h *podHeap) Get(key string) (*QueuedPodInfo, bool) {
	i, ok := h.index[key]
	if !ok {
		return nil, false
	}
	return h.items[i], true
}

// Delete removes the entry with key, reporting whether it was there.
func (h *podHeap) Delete(key string) (*QueuedPodInfo, bool) {
	i, ok := h.index[key]
	if !ok {
		return nil, false
	}
	p := heap.Remove(h, i).(*QueuedPodInfo)
	h.depth.Dec()
	return p, true
}

// Peek returns the smallest entry without removing it.
func (h *podHeap) Peek() (*QueuedPodInfo, bool) {
	if len(h.items) == 0 {
		return nil, false
	}
	return h.items[0], true
}

// PopMin removes and returns the smallest entry.
func (h *podHeap) PopMin() (*QueuedPodInfo, bool) {
	if len(h.items) == 0 {
		return nil, false
	}
	p := heap.Pop(h).(*QueuedPodInfo)
	h.depth.Dec()
	return p, true
}

type noopGauge struct{}

func (noopGauge) Inc() {}
func (noopGauge) Dec() {}
