package deltafifo

import "log/slog"

// Replace takes a full relist. Every listed object gets a Sync delta (or
// Replaced, with EmitDeltaTypeReplaced). A key queued or known but not
// listed was deleted while we were not watching: it gets a Deleted delta
// holding a DeletedFinalStateUnknown with the last object we knew.
func (f *DeltaFIFO) Replace(list []any, resourceVersion string) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	action := Sync
	if f.opts.EmitDeltaTypeReplaced {
		action = Replaced
	}
	seen := make(map[string]struct{}, len(list)) // listed, then tombstoned
	for _, obj := range list {
		key, err := f.KeyOf(obj)
		if err != nil {
			return err
		}
		seen[key] = struct{}{}
		if err := f.queueActionLocked(key, action, obj, true); err != nil {
			return err
		}
	}
	tombstone := func(key string) {
		if _, ok := seen[key]; !ok {
			seen[key] = struct{}{}
			// Cannot fail: tombstones skip the transformer, its only error.
			_ = f.queueActionLocked(key, Deleted, DeletedFinalStateUnknown{Key: key, Obj: f.lastStateLocked(key)}, false)
		}
	}
	// The queue's order, not client-go's map order: tests repeat.
	for _, key := range f.queue.keys() {
		tombstone(key)
	}
	if f.opts.KnownObjects != nil {
		for _, key := range f.opts.KnownObjects.ListKeys() {
			tombstone(key)
		}
	}
	f.lastSyncResourceVersion = resourceVersion
	if !f.populated {
		f.populated, f.initialPopulationCount = true, len(seen)
	}
	return nil
}

// lastStateLocked is the newest object queued for key, else the consumer's
// copy (or nil, logged: the deletion is still reported, without a state).
func (f *DeltaFIFO) lastStateLocked(key string) any {
	if d, queued := f.items[key]; queued {
		last := d.Newest().Object
		if t, ok := last.(DeletedFinalStateUnknown); ok {
			return t.Obj
		}
		return last
	}
	obj, exists, err := f.opts.KnownObjects.GetByKey(key)
	if err != nil || !exists {
		slog.Warn("DeltaFIFO: known key has no object, tombstone without one",
			"component", "deltafifo", "key", key, "err", err)
		return nil
	}
	return obj
}

// Resync queues a Sync delta with the consumer's copy of every known key with
// nothing queued, so handlers see every object again. A queued key is skipped:
// its known copy is older than what is queued, a Sync would go back in time.
func (f *DeltaFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.opts.KnownObjects == nil {
		return nil
	}
	for _, key := range f.opts.KnownObjects.ListKeys() {
		obj, exists, err := f.opts.KnownObjects.GetByKey(key)
		if err != nil || !exists {
			continue // nothing known to resync
		}
		id, err := f.KeyOf(obj) // by the object, as client-go, should index and key function disagree
		if err != nil {
			return err
		}
		if _, queued := f.items[id]; !queued {
			if err := f.queueActionLocked(id, Sync, obj, false); err != nil {
				return err
			}
		}
	}
	return nil
}
