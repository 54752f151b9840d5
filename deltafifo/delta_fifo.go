package deltafifo

import (
	"errors"
	"fmt"
	"sync"

	"kubeloop/api"
)

// ErrFIFOClosed is what Pop returns once the queue is closed and drained.
var ErrFIFOClosed = errors.New("DeltaFIFO: manipulating with closed queue")

// PopProcessFunc handles one popped key's Deltas; isInInitialList: not synced yet.
type PopProcessFunc func(obj any, isInInitialList bool) error

// DeltaFIFOOptions configures a DeltaFIFO. Every field is optional.
type DeltaFIFOOptions struct {
	KeyFunction  api.KeyFunc     // default api.MetaNamespaceKeyFunc
	KnownObjects KeyListerGetter // what the consumer holds: to tombstone popped keys, to Resync
	// EmitDeltaTypeReplaced makes Replace record Replaced instead of Sync.
	EmitDeltaTypeReplaced bool
	Transformer           TransformFunc // rewrites objects before they are queued
	Name                  string        // names the queue in traces
}

// DeltaFIFO is a queue of keys, each carrying the changes made to it since
// it was last popped. A reflector produces, an informer consumes with Pop.
type DeltaFIFO struct {
	lock sync.Mutex
	cond sync.Cond // signalled when a key joins the queue, broadcast on Close

	// Invariants: a key is in items iff it is in queue; it appears there
	// once; its Deltas are never empty and never end in two Deleted.
	items map[string]Deltas
	queue keyQueue // the keys in the order Pop returns them

	// populated: an Add, Update, Delete or Replace came; HasSynced waits for
	// it and for the first Replace's keys (initialPopulationCount) to be popped.
	populated               bool
	initialPopulationCount  int
	closed                  bool
	lastSyncResourceVersion string
	opts                    DeltaFIFOOptions
}

// NewDeltaFIFOWithOptions returns an empty, open DeltaFIFO.
func NewDeltaFIFOWithOptions(opts DeltaFIFOOptions) *DeltaFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = api.MetaNamespaceKeyFunc
	}
	f := &DeltaFIFO{items: map[string]Deltas{}, opts: opts}
	f.cond.L = &f.lock
	return f
}

// KeyOf keys obj like the key function does, and also accepts Deltas (keyed
// by their newest object) and tombstones (keyed by their Key).
func (f *DeltaFIFO) KeyOf(obj any) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", errors.New("DeltaFIFO: cannot key an empty Deltas")
		}
		obj = d.Newest().Object
	}
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return f.opts.KeyFunction(obj)
}

func (f *DeltaFIFO) Add(obj any) error    { return f.record(Added, obj) }
func (f *DeltaFIFO) Update(obj any) error { return f.record(Updated, obj) }
func (f *DeltaFIFO) Delete(obj any) error { return f.record(Deleted, obj) }

// record queues a watch event's delta. A Delete of an object neither queued
// nor held by the consumer is dropped: a relist most likely tombstoned it.
func (f *DeltaFIFO) record(t DeltaType, obj any) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return err
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	if _, queued := f.items[key]; t == Deleted && !queued {
		if f.opts.KnownObjects == nil {
			return nil
		}
		// A lookup error is not proof of absence, so the delete goes through.
		if _, known, err := f.opts.KnownObjects.GetByKey(key); err == nil && !known {
			return nil
		}
	}
	return f.queueActionLocked(key, t, obj, true)
}

// queueActionLocked appends one delta to key, queueing key if new. transform
// is false for tombstones and for Resync's objects, transformed once already.
func (f *DeltaFIFO) queueActionLocked(key string, t DeltaType, obj any, transform bool) error {
	if f.opts.Transformer != nil && transform {
		var err error
		if obj, err = f.opts.Transformer(obj); err != nil {
			return fmt.Errorf("DeltaFIFO: transform %q: %w", key, err)
		}
	}
	old, queued := f.items[key]
	f.items[key] = dedupDeltas(append(old, Delta{Type: t, Object: obj}))
	f.traceQueued(key, t, obj)
	if !queued {
		f.queue.push(key)
		f.cond.Signal()
	}
	return nil
}

// dedupDeltas collapses only a trailing pair of Deleted, which a relist's
// tombstone and a late watch event make of one deletion; it keeps the older
// unless that is a tombstone: a real final state beats a guessed one.
func dedupDeltas(d Deltas) Deltas {
	n := len(d)
	if n < 2 || d[n-1].Type != Deleted || d[n-2].Type != Deleted {
		return d
	}
	if _, tombstone := d[n-2].Object.(DeletedFinalStateUnknown); tombstone {
		d[n-2] = d[n-1]
	}
	d[n-1] = Delta{}
	return d[:n-1]
}

// Pop waits for a key, removes it and hands its Deltas to process, under the
// queue's lock so the consumer updates its known objects atomically with the
// removal. process's error is returned; the key is not requeued.
func (f *DeltaFIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for f.queue.len() == 0 {
		if f.closed {
			return nil, ErrFIFOClosed
		}
		f.cond.Wait()
	}
	isInInitialList := f.initialPopulationCount > 0 // a queued key means populated
	if isInInitialList {
		f.initialPopulationCount--
	}
	key := f.queue.pop()
	var item any = f.items[key] // boxed once: each conversion to any allocates
	delete(f.items, key)
	if process == nil {
		return item, nil
	}
	return item, process(item, isInInitialList)
}

// HasSynced reports whether everything the first Replace queued has been
// popped, or whether an Add, Update or Delete came before any Replace.
func (f *DeltaFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.populated && f.initialPopulationCount == 0
}

// Close wakes every waiting Pop; once the queue is drained Pop returns ErrFIFOClosed.
func (f *DeltaFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}
