package deltafifo

import "kubeloop/api"

// DeltaType says what happened to an object.
type DeltaType string

// The five things a DeltaFIFO records. Replaced and Sync both carry an object
// that was not necessarily changed: Replaced comes from a relist (Replace),
// Sync from a periodic Resync or, unless EmitDeltaTypeReplaced is set, from a
// relist too, which is how client-go behaved before Replaced existed.
const (
	Added    DeltaType = "Added"
	Updated  DeltaType = "Updated"
	Deleted  DeltaType = "Deleted"
	Replaced DeltaType = "Replaced"
	Sync     DeltaType = "Sync"
)

// Delta is one thing that happened to an object, with the object as it was
// after that change; for Deleted, the last state seen before the deletion
// (which may be a DeletedFinalStateUnknown).
type Delta struct {
	Type   DeltaType
	Object any
}

// Deltas is everything that happened to one key since it was last popped,
// oldest first. A queued key always has at least one Delta.
type Deltas []Delta

// Oldest returns the first delta, or nil when there is none.
func (d Deltas) Oldest() *Delta {
	if len(d) == 0 {
		return nil
	}
	return &d[0]
}

// Newest returns the last delta, or nil when there is none.
func (d Deltas) Newest() *Delta {
	if len(d) == 0 {
		return nil
	}
	return &d[len(d)-1]
}

// DeletedFinalStateUnknown is the tombstone a relist leaves for an object that
// vanished while the watch was down: the deletion event itself was never
// seen, so Obj is only the last state we knew and may be stale (or nil).
type DeletedFinalStateUnknown struct {
	Key string
	Obj any
}

// TransformFunc rewrites an object before it is queued, typically to drop
// fields a consumer never reads. It sees new objects only: tombstones and
// Resync's Sync deltas carry objects that already went through it once.
type TransformFunc func(obj any) (any, error)

// KeyListerGetter is the consumer's view of what it already knows, in
// practice the informer's indexer. Delete, Replace and Resync consult it.
type KeyListerGetter interface {
	ListKeys() []string
	GetByKey(key string) (value any, exists bool, err error)
}

// DeletionHandlingMetaNamespaceKeyFunc is api.MetaNamespaceKeyFunc that also
// accepts a tombstone, whose object may be nil or stale, by trusting its Key.
// Delete handlers receive tombstones, so they key with this function.
func DeletionHandlingMetaNamespaceKeyFunc(obj any) (string, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return api.MetaNamespaceKeyFunc(obj)
}
