package api

import "encoding/json"

// EventType is the type of one watch event.
type EventType string

// The watch event types; the strings are the wire values.
const (
	Added    EventType = "ADDED"
	Modified EventType = "MODIFIED"
	Deleted  EventType = "DELETED"
	Bookmark EventType = "BOOKMARK"
	Error    EventType = "ERROR"
)

// InitialEventsAnnotation marks the BOOKMARK that ends the initial events of a
// watch started with sendInitialEvents=true.
const InitialEventsAnnotation = "k8s.io/initial-events-end"

// WatchEvent is one event of a watch. For ERROR the object is a *Status; for
// BOOKMARK it is an object of the watched kind that carries only the
// resourceVersion (and maybe the initial-events-end annotation).
type WatchEvent struct {
	Type   EventType
	Object Object
}

// RawWatchEvent is the wire form of an event: one JSON object per line of the
// stream, with the object left undecoded. It documents the shape and serves
// code that does not know the kind; kubeloop's client decodes an event and
// its object in one pass instead (client/watch.go).
type RawWatchEvent struct {
	Type   EventType       `json:"type"`
	Object json.RawMessage `json:"object"`
}

// Watcher is a running watch. Events arrive on ResultChan until it is closed,
// by the producer (timeout, error, server going away) or by Stop.
// Stop may be called more than once.
type Watcher interface {
	ResultChan() <-chan WatchEvent
	Stop()
}

// GetTypeMeta / GetObjectMeta / DeepCopyObject let a *Status travel in an
// ERROR watch event. A Status has no object metadata of its own; the
// returned ObjectMeta is a throwaway.
func (s *Status) GetObjectMeta() *ObjectMeta { return &ObjectMeta{} }

// DeepCopyObject copies a Status. Status embeds ListMeta, not ObjectMeta, so
// cmd/deepcopy-gen does not count it as a kind and writes only its DeepCopy.
func (s *Status) DeepCopyObject() Object {
	if c := s.DeepCopy(); c != nil {
		return c
	}
	return nil
}
