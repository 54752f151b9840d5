package deltafifo

import "log/slog"

// Replace takes a full relist. Every listed object gets a Sync delta (or
// Replaced, with EmitDeltaTypeReplaced). Every key that is queued or known
// but absent from the list was deleted while we were not watching, so it
// gets a Deleted delta holding a DeletedFinalStateUnknown with the last
// object we knew: the newest queued one if the key is queued, else the
// consumer's copy.
func (f *DeltaFIFO) Replace(list []any, resourceVersion string) error {
	f.lock.Lock()
	defer f.lock.Unlock()

	action := Sync
	if f.emitDeltaTypeReplaced {
		action = Replaced
	}
	listed := make(map[string]struct{}, len(list))
	for _, obj := range list {
		key, err := f.KeyOf(obj)
		if err != nil {
			return err
		}
		listed[key] = struct{}{}
		if err := f.queueActionLocked(key, action, obj, true); err != nil {
			return err
		}
	}

	// client-go walks its items map here, in random order; walking the
	// queue gives the same set of tombstones in a repeatable order.
	tombstones := 0
	for _, key := range f.queue.keys() {
		if _, ok := listed[key]; ok {
			continue
		}
		last := f.items[key].Newest().Object
		if d, ok := last.(DeletedFinalStateUnknown); ok {
			last = d.Obj
		}
		tombstones++
		f.queueTombstoneLocked(key, last)
	}

	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if _, ok := listed[key]; ok {
				continue
			}
			if _, queued := f.items[key]; queued {
				continue
			}
			last, exists, err := f.knownObjects.GetByKey(key)
			if err != nil || !exists {
				// Still report the deletion, just without a final object.
				slog.Warn("DeltaFIFO: known key has no object, tombstone without one",
					"component", "deltafifo", "key", key, "err", err)
				last = nil
			}
			tombstones++
			f.queueTombstoneLocked(key, last)
		}
	}

	f.lastSyncResourceVersion = resourceVersion
	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(listed) + tombstones
	}
	return nil
}

// queueTombstoneLocked cannot fail: tombstones skip the transformer, and
// that is the only error queueActionLocked returns.
func (f *DeltaFIFO) queueTombstoneLocked(key string, last any) {
	_ = f.queueActionLocked(key, Deleted, DeletedFinalStateUnknown{Key: key, Obj: last}, false)
}

// Resync queues a Sync delta with the consumer's copy of every known key that
// has nothing queued, so handlers periodically see every object again. A key
// with queued deltas is skipped: its known copy is older than what is queued,
// and a Sync carrying it would travel back in time.
func (f *DeltaFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.knownObjects == nil {
		return nil
	}
	for _, key := range f.knownObjects.ListKeys() {
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil || !exists {
			slog.Warn("DeltaFIFO: known key vanished during resync, skipped",
				"component", "deltafifo", "key", key, "err", err)
			continue
		}
		// Key by the object, as client-go does, in case the known-objects
		// index and the key function disagree.
		id, err := f.KeyOf(obj)
		if err != nil {
			return err
		}
		if _, queued := f.items[id]; queued {
			continue
		}
		if err := f.queueActionLocked(id, Sync, obj, false); err != nil {
			return err
		}
	}
	return nil
}
