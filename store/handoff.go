package store

// Skip on a first reading: this file is a speed-up. Without it the watch
// decodes every event's value from etcd's bytes (watcher.go: transform),
// which is what the plain path and Kubernetes' etcd3 watcher do.
//
// What it saves: the watch cache's watch reads back every object the
// apiserver writes, so each write was encoded once and decoded once more
// from the etcd event. A Store that writes the object has it: it keeps a
// copy with the bytes it writes, and its own watch takes that copy for an
// event carrying the same bytes instead of decoding them. A deep copy of a pod cost a tenth
// of its JSON decode; at 20 nodes the decode was about 4 % of the
// cluster's CPU in BenchmarkScaleTo1000's profile. Built-in kinds are now
// stored as protobuf (codec.go), which decodes faster: the copy is a
// quarter of it (2.7 against 10 µs, measured once on the tracked pod of
// api/codec_bench_test.go on a quiet machine), and the handoff saves less.
// BenchmarkWriteAndWatch in five runs at load 1.3, protobuf values: 0.69
// to 1.09 times as many pods a second for 0.87 to 0.99 of the CPU; the
// reference itself wrote 22 to 26 thousand pods a second, where with JSON
// values it wrote 12 thousand (three runs of the JSON store beside them:
// the handoff 1.07 to 1.62 times as many, for 0.86 to 0.94 of the CPU). BenchmarkWriteAndWatch
// (handoff_test.go) measures one write plus its watch event with and
// without the handoff, interleaved: in four runs on a 2-core VM at load 8 the
// handoff wrote 1.06 to 1.20 times as many pods a second for 0.88 to 0.95
// of the CPU. (It once timed only the writers, one arm after the other,
// and the handoff measured 1.16 times slower in a quiet run: the copy is
// made by the writer, inside the timing, while the decode ran on the
// watch's goroutine beside the writers and its tail after the timer had
// stopped.)
//
// The copy is what decoding the stored bytes gives, because the stored
// bytes are its encoding: the same TypeMeta, and the event's revision
// becomes its resourceVersion. (Up to what no encoding keeps: an empty
// list or map the decode gives back as nil, and in protobuf an empty
// Quantity that comes back "0", as in Kubernetes.) Kinds whose decode does more (ResourceInfo.Decoded:
// custom resources' defaults and pruning) are always decoded. A write
// whose event no watch of this Store takes (another apiserver's watch, a
// Store without watchers) costs nothing: handing off starts only while a
// watch of this Store runs, and the table holds at most handoffSize
// objects, the oldest dropped first.

import (
	"bytes"
	"sync"
	"sync/atomic"

	"kubeloop/api"
)

// handoffSize bounds the objects waiting for their watch event: enough
// for the writes in flight between a commit and its event at 64
// concurrent writers, with room to spare.
const handoffSize = 1024

// writtenObjects is a Store's table of objects it is writing or wrote,
// waiting for its watch to read them back. An entry is keyed by the etcd
// key and holds the exact bytes written: the watch takes it only for an
// event with those bytes, so the object is always what decoding the
// event would give, whoever wrote them. It is put before the transaction
// because etcd may deliver the event before the writer hears back.
type writtenObjects struct {
	// limit is handoffSize unless a test sets less; negative turns the
	// handoff off (the benchmark's reference).
	limit int
	// taken counts the decodes saved, for Stats.
	taken atomic.Uint64

	// watches counts the running watches of the Store; nothing is kept
	// while it is zero. Atomic, so that a Store nobody watches pays no
	// lock per write.
	watches atomic.Int32

	mu    sync.Mutex
	byKey map[string]written
	// ring is the last limit puts, in a circle: the put numbered seq goes
	// to ring[seq%limit] and evicts what the put limit before it left
	// there, if that is still waiting (its key is in byKey with that
	// seq). So byKey never holds more than limit objects, and nothing
	// else grows: an entry taken or put again leaves a stale slot behind,
	// which is overwritten in its turn.
	ring []orderEntry
	seq  uint64
}

type written struct {
	data []byte
	obj  api.Object
	seq  uint64
}

type orderEntry struct {
	key string
	seq uint64
}

// watchStarted and watchEnded bracket a watch's life.
func (w *writtenObjects) watchStarted() { w.watches.Add(1) }

func (w *writtenObjects) watchEnded() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.watches.Add(-1) == 0 {
		w.byKey, w.ring = nil, nil
	}
}

// handOff keeps a copy of obj, about to be written under key as data, if
// a watch may read it back. The copy is made before the lock is taken:
// concurrent writers queue on the lock only for the table's bookkeeping.
func (s *Store) handOff(key string, data []byte, obj api.Object) {
	if s.info.Decoded != nil {
		return
	}
	w := &s.written
	if w.watches.Load() == 0 || w.limit < 0 {
		return
	}
	kept := obj.DeepCopyObject()
	w.mu.Lock()
	defer w.mu.Unlock()
	limit := w.limit
	if limit == 0 {
		limit = handoffSize
	}
	if w.byKey == nil || len(w.ring) != limit {
		w.byKey, w.ring = map[string]written{}, make([]orderEntry, limit)
	}
	w.seq++
	slot := &w.ring[w.seq%uint64(limit)]
	if e, ok := w.byKey[slot.key]; ok && e.seq == slot.seq {
		delete(w.byKey, slot.key)
	}
	*slot = orderEntry{key, w.seq}
	w.byKey[key] = written{data: data, obj: kept, seq: w.seq}
}

// dropHandOff forgets what handOff kept for a write that did not happen.
func (s *Store) dropHandOff(key string, data []byte) {
	w := &s.written
	if w.watches.Load() == 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if e, ok := w.byKey[key]; ok && bytes.Equal(e.data, data) {
		delete(w.byKey, key)
	}
}

// take returns the object kept for key if it was written as value, with
// rev as its resourceVersion, and forgets it; nil means decode. Only one
// watch gets a given object; it owns it.
func (w *writtenObjects) take(key, value []byte, rev int64) api.Object {
	w.mu.Lock()
	defer w.mu.Unlock()
	e, ok := w.byKey[string(key)]
	if !ok || !bytes.Equal(e.data, value) {
		return nil
	}
	delete(w.byKey, string(key))
	w.taken.Add(1)
	setRV(e.obj, rev)
	return e.obj
}

// pending is how many written objects wait for a watch.
func (w *writtenObjects) pending() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.byKey)
}
