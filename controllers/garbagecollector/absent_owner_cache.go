package garbagecollector

import "sync"

// referenceCache remembers owners a live GET found absent. A UID is never
// reused, so an owner once absent stays absent, and dependents of the same
// deleted owner need not each ask the apiserver again. It is bounded: the
// oldest entry goes when it is full. Kubernetes: uid_cache.go
// (ReferenceCache, an LRU of 500 entries).
type referenceCache struct {
	mu    sync.Mutex
	max   int
	set   map[objectReference]struct{}
	order []objectReference // insertion order, for eviction
}

func newReferenceCache(max int) *referenceCache {
	return &referenceCache{max: max, set: map[objectReference]struct{}{}}
}

func (c *referenceCache) Add(r objectReference) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.set[r]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.set, c.order[0])
		c.order = c.order[1:]
	}
	c.set[r] = struct{}{}
	c.order = append(c.order, r)
}

func (c *referenceCache) Has(r objectReference) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.set[r]
	return ok
}
