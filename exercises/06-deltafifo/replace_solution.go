//go:build solution

package fifo

import "log/slog"

// dedupDeltas only ever looks at the last two deltas: it runs on every
// append, so a longer run of deletions cannot build up.
func dedupDeltas(d Deltas) Deltas {
	n := len(d)
	if n < 2 || d[n-1].Type != Deleted || d[n-2].Type != Deleted {
		return d
	}
	if _, tombstone := d[n-2].Object.(DeletedFinalStateUnknown); tombstone {
		d[n-2] = d[n-1]
	}
	return d[:n-1]
}

// Replace walks the queue, then the consumer's keys, in order, so a test
// (or a reader stepping through it) sees the same tombstones in the same
// order every time; client-go walks a map.
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
		f.queueActionLocked(key, action, obj)
	}

	tombstones := 0
	for _, key := range f.queue {
		if _, ok := listed[key]; ok {
			continue
		}
		last := f.items[key].Newest().Object
		if d, ok := last.(DeletedFinalStateUnknown); ok {
			last = d.Obj // never a tombstone in a tombstone
		}
		f.queueActionLocked(key, Deleted, DeletedFinalStateUnknown{Key: key, Obj: last})
		tombstones++
	}
	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if _, ok := listed[key]; ok {
				continue
			}
			if _, queued := f.items[key]; queued {
				continue // tombstoned above
			}
			last, exists, err := f.knownObjects.GetByKey(key)
			if err != nil || !exists {
				// Still report the deletion, without a final state.
				slog.Warn("DeltaFIFO: known key has no object", "component", "deltafifo", "key", key, "err", err)
				last = nil
			}
			f.queueActionLocked(key, Deleted, DeletedFinalStateUnknown{Key: key, Obj: last})
			tombstones++
		}
	}

	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(listed) + tombstones
	}
	return nil
}
