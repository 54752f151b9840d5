package informer

import (
	"fmt"
	"sort"
	"sync"

	"kubeloop/api"
)

// IndexFunc computes the index values of an object: the namespace, the UIDs
// of its owners, a node name...
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
	List() []any
	ListKeys() []string
	Get(obj any) (item any, exists bool, err error)
	GetByKey(key string) (item any, exists bool, err error)
	Replace(list []any, resourceVersion string) error
	Resync() error

	// ByIndex lists the objects whose index values include indexedValue.
	ByIndex(indexName, indexedValue string) ([]any, error)
	IndexKeys(indexName, indexedValue string) ([]string, error)
	AddIndexers(newIndexers Indexers) error
	GetIndexers() Indexers
}

// NewIndexer makes an empty Indexer.
func NewIndexer(keyFunc api.KeyFunc, indexers Indexers) Indexer {
	s := &threadSafeStore{
		keyFunc:  keyFunc,
		items:    map[string]any{},
		indexers: Indexers{},
		indices:  map[string]map[string]map[string]struct{}{},
	}
	_ = s.AddIndexers(indexers)
	return s
}

// threadSafeStore is the Indexer. Invariant: for every index name, indices
// holds exactly the index values of the objects in items.
type threadSafeStore struct {
	keyFunc api.KeyFunc

	mu       sync.RWMutex
	items    map[string]any
	indexers Indexers
	// indices: index name → index value → set of keys.
	indices map[string]map[string]map[string]struct{}
}

func (s *threadSafeStore) Add(obj any) error    { return s.Update(obj) }
func (s *threadSafeStore) Resync() error        { return nil }
func (s *threadSafeStore) Update(obj any) error { return s.put(obj) }

func (s *threadSafeStore) put(obj any) error {
	key, err := s.keyFunc(obj)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.items[key]
	s.items[key] = obj
	return s.updateIndicesLocked(old, obj, key)
}

func (s *threadSafeStore) Delete(obj any) error {
	key, err := s.keyFunc(obj)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.items[key]
	if !ok {
		return nil
	}
	delete(s.items, key)
	return s.updateIndicesLocked(old, nil, key)
}

func (s *threadSafeStore) List() []any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]any, 0, len(s.items))
	for _, o := range s.items {
		out = append(out, o)
	}
	return out
}

func (s *threadSafeStore) ListKeys() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.items))
	for k := range s.items {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
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
	for name := range s.indices {
		s.indices[name] = map[string]map[string]struct{}{}
	}
	for key, o := range items {
		if err := s.updateIndicesLocked(nil, o, key); err != nil {
			return err
		}
	}
	return nil
}

func (s *threadSafeStore) ByIndex(indexName, value string) ([]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	idx, ok := s.indices[indexName]
	if !ok {
		return nil, fmt.Errorf("index %q does not exist", indexName)
	}
	keys := idx[value]
	out := make([]any, 0, len(keys))
	for k := range keys {
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
	out := make([]string, 0, len(idx[value]))
	for k := range idx[value] {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, nil
}

// AddIndexers adds indexes, and builds them over what is already stored, so
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
		idx := map[string]map[string]struct{}{}
		s.indices[name] = idx
		for key, o := range s.items {
			values, err := fn(o)
			if err != nil {
				return err
			}
			for _, v := range values {
				addToSet(idx, v, key)
			}
		}
	}
	return nil
}

func (s *threadSafeStore) GetIndexers() Indexers {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := Indexers{}
	for k, v := range s.indexers {
		out[k] = v
	}
	return out
}

// updateIndicesLocked moves key from old's index values to new's.
func (s *threadSafeStore) updateIndicesLocked(old, new any, key string) error {
	for name, fn := range s.indexers {
		idx := s.indices[name]
		if old != nil {
			values, err := fn(old)
			if err != nil {
				return err
			}
			for _, v := range values {
				if set := idx[v]; set != nil {
					delete(set, key)
					if len(set) == 0 {
						delete(idx, v)
					}
				}
			}
		}
		if new != nil {
			values, err := fn(new)
			if err != nil {
				return err
			}
			for _, v := range values {
				addToSet(idx, v, key)
			}
		}
	}
	return nil
}

func addToSet(idx map[string]map[string]struct{}, value, key string) {
	set := idx[value]
	if set == nil {
		set = map[string]struct{}{}
		idx[value] = set
	}
	set[key] = struct{}{}
}
