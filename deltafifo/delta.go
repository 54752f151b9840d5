package deltafifo

import "kubeloop/api"

// DeltaType says what happened to an object.
type DeltaType string

// What a DeltaFIFO records. Replaced (a relist) and Sync (Resync, or a
// relist without EmitDeltaTypeReplaced) carry a maybe unchanged object.
const (
	Added    DeltaType = "Added"
	Updated  DeltaType = "Updated"
	Deleted  DeltaType = "Deleted"
	Replaced DeltaType = "Replaced"
	Sync     DeltaType = "Sync"
)

// Delta is one thing that happened to an object, with the object as it was
// after it; for Deleted, the last state seen (maybe a DeletedFinalStateUnknown).
type Delta struct {
	Type   DeltaType
	Object any
}

// Deltas is everything that happened to one key since it was last popped,
// oldest first; never empty while the key is queued.
type Deltas []Delta

// Newest returns the last delta, or nil when there is none.
func (d Deltas) Newest() *Delta {
	if len(d) == 0 {
		return nil
	}
	return &d[len(d)-1]
}

// DeletedFinalStateUnknown is a relist's tombstone for an object gone while
// the watch was down: Obj is the last state we knew, maybe stale or nil.
type DeletedFinalStateUnknown struct {
	Key string
	Obj any
}

// TransformFunc rewrites an object before it is queued (to drop fields no
// consumer reads); tombstones and Resync's objects went through it already.
type TransformFunc func(obj any) (any, error)

// KeyListerGetter is what the consumer holds: the informer's indexer.
type KeyListerGetter interface {
	ListKeys() []string
	GetByKey(key string) (value any, exists bool, err error)
}

// DeletionHandlingMetaNamespaceKeyFunc is api.MetaNamespaceKeyFunc that also
// keys a tombstone by its Key: delete handlers receive tombstones.
func DeletionHandlingMetaNamespaceKeyFunc(obj any) (string, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return api.MetaNamespaceKeyFunc(obj)
}
