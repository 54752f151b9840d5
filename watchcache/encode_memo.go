package watchcache

// Skip on a first reading: this file is a speed-up. A watch is complete
// without it (the apiserver then encodes each event for each watcher). What
// it saves: N watchers of one resource cost one encoding per event and media
// type instead of N (BenchmarkFanout1000Watchers in bench_test.go;
// apiserver/endpoints/handlers/watch_shared.go is the other half).

import (
	"sync"

	"kubeloop/api"
)

// encodeMemoSize is how many recent objects keep their serialization.
// Every watcher gets an event within its buffer's worth of events, so a few
// hundred cover them all.
const encodeMemoSize = 512

// encodeMemo remembers the serialization of the latest objects the cache
// dispatched, per media type, so that N watchers of one object cost one
// encoding per media type, not N. Event objects are the cache's own and
// never change, so their identity is a sound key; holding the key keeps its
// address from being reused.
// Kubernetes: cacher/caching_object.go (cachingObject, which wraps the
// object in the event and caches its serialization per encoder).
type encodeMemo struct {
	mu    sync.Mutex
	byObj map[memoKey][]byte
	ring  [encodeMemoSize]memoKey
	next  int
}

// memoKey is one object in one media type.
type memoKey struct {
	obj       api.Object
	mediaType string
}

func newEncodeMemo() *encodeMemo { return &encodeMemo{byObj: map[memoKey][]byte{}} }

// encode returns obj's encoding, calling enc on a miss. Two watchers that
// miss together both encode; the later result is kept.
func (m *encodeMemo) encode(obj api.Object, mediaType string, enc func(api.Object) ([]byte, error)) ([]byte, error) {
	key := memoKey{obj, mediaType}
	m.mu.Lock()
	b, ok := m.byObj[key]
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
	if _, ok := m.byObj[key]; !ok {
		if old := m.ring[m.next]; old.obj != nil {
			delete(m.byObj, old)
		}
		m.ring[m.next] = key
		m.next = (m.next + 1) % encodeMemoSize
	}
	m.byObj[key] = b
	return b, nil
}

// EncodeObject returns the serialization of an object this watch
// delivered in one media type, made by enc once for every watcher of the
// cache. enc must depend on nothing but the object and the media type (the
// apiserver's JSON or protobuf of it, with its kind and apiVersion): they
// are the key's only inputs.
func (w *cacheWatcher) EncodeObject(obj api.Object, mediaType string, enc func(api.Object) ([]byte, error)) ([]byte, error) {
	if w.memo == nil {
		return enc(obj)
	}
	return w.memo.encode(obj, mediaType, enc)
}
