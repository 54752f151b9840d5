package deltafifo

import (
	"errors"
	"fmt"
	"sync"

	"kubeloop/api"
)

// ErrFIFOClosed is what Pop returns once the queue is closed and drained.
var ErrFIFOClosed = errors.New("DeltaFIFO: manipulating with closed queue")

// PopProcessFunc handles one popped key. obj is the key's Deltas;
// isInInitialList says the key came from the first Replace and the queue has
// not synced yet, so a handler can tell initial adds from later ones.
type PopProcessFunc func(obj any, isInInitialList bool) error

// DeltaFIFOOptions configures a DeltaFIFO. Every field is optional.
type DeltaFIFOOptions struct {
	// KeyFunction keys objects; the default is api.MetaNamespaceKeyFunc.
	KeyFunction api.KeyFunc
	// KnownObjects is what the consumer already holds. Without it, Replace
	// cannot notice deletions of objects that were already popped, and
	// Resync does nothing.
	KnownObjects KeyListerGetter
	// EmitDeltaTypeReplaced makes Replace record Replaced instead of Sync.
	EmitDeltaTypeReplaced bool
	// Transformer, when set, rewrites objects before they are queued.
	Transformer TransformFunc
	// Name names the queue in traces; the informer gives its component's.
	Name string
}

// DeltaFIFO is a producer/consumer queue of keys where each key carries the
// list of changes made to it since it was last popped. A reflector produces,
// an informer consumes with Pop.
type DeltaFIFO struct {
	lock sync.Mutex
	// cond is signalled when a key joins the queue and broadcast on Close.
	cond sync.Cond

	// Invariants: a key is in items iff it is in queue; it appears there
	// once; its Deltas are never empty and never end in two Deleted.
	items map[string]Deltas
	queue keyQueue // the keys in the order Pop returns them

	// populated turns true on the first Add, Update, Delete or Replace.
	// initialPopulationCount is how many keys of the first Replace are
	// still queued; HasSynced waits for it to reach zero.
	populated              bool
	initialPopulationCount int

	closed                  bool
	lastSyncResourceVersion string

	keyFunc               api.KeyFunc
	knownObjects          KeyListerGetter
	emitDeltaTypeReplaced bool
	transformer           TransformFunc
	name                  string
}

// NewDeltaFIFOWithOptions returns an empty, open DeltaFIFO.
func NewDeltaFIFOWithOptions(opts DeltaFIFOOptions) *DeltaFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = api.MetaNamespaceKeyFunc
	}
	f := &DeltaFIFO{
		items:                 map[string]Deltas{},
		keyFunc:               opts.KeyFunction,
		knownObjects:          opts.KnownObjects,
		emitDeltaTypeReplaced: opts.EmitDeltaTypeReplaced,
		transformer:           opts.Transformer,
		name:                  opts.Name,
	}
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
	key, err := f.keyFunc(obj)
	if err != nil {
		return "", fmt.Errorf("DeltaFIFO: key of %T: %w", obj, err)
	}
	return key, nil
}

// Add records an Added delta.
func (f *DeltaFIFO) Add(obj any) error {
	return f.addOrUpdate(Added, obj)
}

// Update records an Updated delta.
func (f *DeltaFIFO) Update(obj any) error {
	return f.addOrUpdate(Updated, obj)
}

func (f *DeltaFIFO) addOrUpdate(t DeltaType, obj any) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return err
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	return f.queueActionLocked(key, t, obj, true)
}

// Delete records a Deleted delta, unless the object is unknown: neither
// queued nor (when there are known objects) held by the consumer. Such a
// delete most likely repeats one a relist already reported as a tombstone.
func (f *DeltaFIFO) Delete(obj any) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return err
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	_, queued := f.items[key]
	if !queued {
		if f.knownObjects == nil {
			return nil
		}
		// A lookup error is not proof of absence, so the delete goes through.
		if _, known, err := f.knownObjects.GetByKey(key); err == nil && !known {
			return nil
		}
	}
	return f.queueActionLocked(key, Deleted, obj, true)
}

// queueActionLocked appends one delta to key, queueing key if it is new.
// transform is false for objects that already went through the transformer
// once (Resync's known objects) and is ignored for tombstones.
func (f *DeltaFIFO) queueActionLocked(key string, t DeltaType, obj any, transform bool) error {
	if f.transformer != nil && transform {
		if _, tombstone := obj.(DeletedFinalStateUnknown); !tombstone {
			var err error
			if obj, err = f.transformer(obj); err != nil {
				return fmt.Errorf("DeltaFIFO: transform %q: %w", key, err)
			}
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

// dedupDeltas collapses a trailing pair of Deleted deltas, which a relist
// tombstone and a late watch event can both produce for one deletion. It
// keeps the older one unless that is a tombstone, since a real final state
// beats a guessed one. Nothing else is collapsed: every update is kept.
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

// Pop waits for a key, removes it and hands its Deltas to process, which
// runs under the queue's lock so the consumer can update its known objects
// atomically with the removal. process's error is returned as is; the key is
// not requeued, so a consumer that wants a retry must Add it back.
func (f *DeltaFIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for f.queue.len() == 0 {
		if f.closed {
			return nil, ErrFIFOClosed
		}
		f.cond.Wait()
	}
	isInInitialList := !f.hasSyncedLocked()
	key := f.queue.pop()
	if f.initialPopulationCount > 0 {
		f.initialPopulationCount--
	}
	// Box the Deltas once: each conversion to any would allocate.
	var item any = f.items[key]
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
	return f.hasSyncedLocked()
}

func (f *DeltaFIFO) hasSyncedLocked() bool {
	return f.populated && f.initialPopulationCount == 0
}

// Close wakes every waiting Pop. Keys still queued can be popped; after
// that Pop returns ErrFIFOClosed.
func (f *DeltaFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed reports whether Close was called.
func (f *DeltaFIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}
