package watchcache

import (
	"sync"

	"kubeloop/api"
)

// encodeMemoSize is how many recent objects keep their serialization.
// Every watcher gets an event within its buffer's worth of events, so a few
// hundred cover them all.
const encodeMemoSize = 512

// encodeMemo remembers the serialization of the latest objects the cache
// dispatched, so that N watchers of one object cost one encoding, not N.
// Event objects are the cache's own and never change, so their identity
// is a sound key; holding the key keeps its address from being reused.
// Kubernetes: cacher/caching_object.go (cachingObject, which wraps the
// object in the event and caches its serialization per encoder).
type encodeMemo struct {
	mu    sync.Mutex
	byObj map[api.Object][]byte
	ring  [encodeMemoSize]api.Object
	next  int
}

func newEncodeMemo() *encodeMemo { return &encodeMemo{byObj: map[api.Object][]byte{}} }

// encode returns obj's encoding, calling enc on a miss. Two watchers that
// miss together both encode; the later result is kept.
func (m *encodeMemo) encode(obj api.Object, enc func(api.Object) ([]byte, error)) ([]byte, error) {
	m.mu.Lock()
	b, ok := m.byObj[obj]
	m.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := enc(obj)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.byObj[obj]; !ok {
		if old := m.ring[m.next]; old != nil {
			delete(m.byObj, old)
		}
		m.ring[m.next] = obj
		m.next = (m.next + 1) % encodeMemoSize
	}
	m.byObj[obj] = b
	return b, nil
}

// EncodeObject returns the serialization of an object this watch
// delivered, made by enc once for every watcher of the cache. enc must
// depend on nothing but the object (the apiserver's JSON of it, with its
// kind and apiVersion): it is the key's only input.
func (w *cacheWatcher) EncodeObject(obj api.Object, enc func(api.Object) ([]byte, error)) ([]byte, error) {
	if w.memo == nil {
		return enc(obj)
	}
	return w.memo.encode(obj, enc)
}
