package scheduler

// The cache's nodes in the order they last changed, newest first, so that
// UpdateSnapshot visits only the nodes changed since the snapshot and stops
// at the first older one: O(changed nodes) per cycle where a walk of the
// whole map was O(cluster) under the cache's lock, which the informers'
// handlers wait for. Kubernetes: pkg/scheduler/backend/cache/cache.go,
// nodeInfoListItem, moveNodeInfoToHead, removeNodeInfoFromList.

// changeItem is one node's place in the list.
type changeItem struct {
	name       string
	prev, next *changeItem
}

// changeList is a doubly linked list of node names with an index.
type changeList struct {
	head  *changeItem
	items map[string]*changeItem
}

// moveToHead puts name first: it has just changed.
func (l *changeList) moveToHead(name string) {
	if l.items == nil {
		l.items = map[string]*changeItem{}
	}
	it, ok := l.items[name]
	if ok {
		if it == l.head {
			return
		}
		l.unlink(it)
	} else {
		it = &changeItem{name: name}
		l.items[name] = it
	}
	it.next = l.head
	if l.head != nil {
		l.head.prev = it
	}
	l.head = it
}

// remove takes name out of the list (its node is gone from the cache).
func (l *changeList) remove(name string) {
	if it, ok := l.items[name]; ok {
		l.unlink(it)
		delete(l.items, name)
	}
}

func (l *changeList) unlink(it *changeItem) {
	if it.prev != nil {
		it.prev.next = it.next
	} else {
		l.head = it.next
	}
	if it.next != nil {
		it.next.prev = it.prev
	}
	it.prev, it.next = nil, nil
}
