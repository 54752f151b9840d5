package cache

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"kubeloop/api"
)

// IndexFunc computes the index values of an object: its namespace, the
// UIDs of its owners, a node name...
type IndexFunc func(obj any) ([]string, error)

// Indexers names the index functions of an Indexer.
type Indexers map[string]IndexFunc

// NamespaceIndex is the index every informer has, by namespace.
const NamespaceIndex = "namespace"

// MetaNamespaceIndexFunc indexes objects by namespace.
func MetaNamespaceIndexFunc(obj any) ([]string, error) {
	o, ok := obj.(api.Object)
	if !ok {
		return nil, fmt.Errorf("object has no meta: %T", obj)
	}
	return []string{o.GetObjectMeta().Namespace}, nil
}

// Indexer is a thread-safe store of objects with secondary indexes. The
// informer keeps it equal to the server's state; controllers read it.
// Objects in it are shared: never change one, DeepCopy first.
type Indexer interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	Replace(list []any, resourceVersion string) error
	List() []any
	ListKeys() []string
	Get(obj any) (item any, exists bool, err error)
	GetByKey(key string) (item any, exists bool, err error)

	// ByIndex lists the objects whose index values include indexedValue.
	ByIndex(indexName, indexedValue string) ([]any, error)
	IndexKeys(indexName, indexedValue string) ([]string, error)
	AddIndexers(newIndexers Indexers) error
	GetIndexers() Indexers
}

// NewIndexer makes an empty Indexer.
func NewIndexer(keyFunc api.KeyFunc, indexers Indexers) Indexer {
	s := &threadSafeStore{keyFunc: keyFunc, items: map[string]any{}, indexers: Indexers{}, indices: map[string]index{}}
	_ = s.AddIndexers(indexers) // nothing stored yet, so nothing to fail on
	return s
}

// index maps an index value to the set of keys whose objects have it.
type index map[string]map[string]struct{}

// threadSafeStore is the Indexer. Invariant: indices[name][value] holds
// exactly the keys of the items that indexers[name] gives value.
type threadSafeStore struct {
	keyFunc api.KeyFunc

	mu       sync.RWMutex
	items    map[string]any
	indexers Indexers
	indices  map[string]index
}

func (s *threadSafeStore) Add(obj any) error    { return s.Update(obj) }
func (s *threadSafeStore) Update(obj any) error { return s.set(obj, obj) }
func (s *threadSafeStore) Delete(obj any) error { return s.set(obj, nil) }

// set stores obj under the key of keyed, or removes that key if obj is nil.
func (s *threadSafeStore) set(keyed, obj any) error {
	key, err := s.keyFunc(keyed)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, had := s.items[key]
	if obj == nil {
		delete(s.items, key)
	} else {
		s.items[key] = obj
	}
	for name := range s.indexers {
		if had {
			if err := s.indexLocked(name, old, key, false); err != nil {
				return err
			}
		}
		if obj != nil {
			if err := s.indexLocked(name, obj, key, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// indexLocked adds key to, or removes it from, the index values of obj.
func (s *threadSafeStore) indexLocked(name string, obj any, key string, add bool) error {
	values, err := s.indexers[name](obj)
	if err != nil {
		return err
	}
	idx := s.indices[name]
	for _, v := range values {
		switch {
		case add && idx[v] == nil:
			idx[v] = map[string]struct{}{key: {}}
		case add:
			idx[v][key] = struct{}{}
		default:
			if delete(idx[v], key); len(idx[v]) == 0 {
				delete(idx, v)
			}
		}
	}
	return nil
}

// Replace swaps in the listed objects and rebuilds every index over them.
func (s *threadSafeStore) Replace(list []any, _ string) error {
	items := make(map[string]any, len(list))
	for _, o := range list {
		key, err := s.keyFunc(o)
		if err != nil {
			return err
		}
		items[key] = o
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = items
	for name := range s.indexers {
		if err := s.buildIndexLocked(name); err != nil {
			return err
		}
	}
	return nil
}

// AddIndexers adds indexes and builds them over what is already stored, so
// it works after the informer has started.
func (s *threadSafeStore) AddIndexers(newIndexers Indexers) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name := range newIndexers {
		if _, exists := s.indexers[name]; exists {
			return fmt.Errorf("indexer %q already exists", name)
		}
	}
	for name, fn := range newIndexers {
		s.indexers[name] = fn
		if err := s.buildIndexLocked(name); err != nil {
			return err
		}
	}
	return nil
}

func (s *threadSafeStore) buildIndexLocked(name string) error {
	s.indices[name] = index{}
	for key, o := range s.items {
		if err := s.indexLocked(name, o, key, true); err != nil {
			return err
		}
	}
	return nil
}

func (s *threadSafeStore) List() []any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.AppendSeq(make([]any, 0, len(s.items)), maps.Values(s.items))
}

func (s *threadSafeStore) ListKeys() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Sorted(maps.Keys(s.items))
}

func (s *threadSafeStore) Get(obj any) (any, bool, error) {
	key, err := s.keyFunc(obj)
	if err != nil {
		return nil, false, err
	}
	return s.GetByKey(key)
}

func (s *threadSafeStore) GetByKey(key string) (any, bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	o, ok := s.items[key]
	return o, ok, nil
}

func (s *threadSafeStore) ByIndex(indexName, value string) ([]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	idx, ok := s.indices[indexName]
	if !ok {
		return nil, fmt.Errorf("index %q does not exist", indexName)
	}
	out := make([]any, 0, len(idx[value]))
	for k := range idx[value] {
		out = append(out, s.items[k])
	}
	return out, nil
}

func (s *threadSafeStore) IndexKeys(indexName, value string) ([]string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	idx, ok := s.indices[indexName]
	if !ok {
		return nil, fmt.Errorf("index %q does not exist", indexName)
	}
	return slices.Sorted(maps.Keys(idx[value])), nil
}

func (s *threadSafeStore) GetIndexers() Indexers {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return maps.Clone(s.indexers)
}
