// Package record writes Events: short reports that something happened to an
// object ("SuccessfulCreate", "Scheduled", "Started"), which `kubectl
// describe` shows under the object.
//
// Where it sits: controllers, the scheduler and the kubelet call
// Recorder.Eventf next to the write they just made; the recorder writes the
// Event through the API on its own goroutine, so reporting never slows a
// reconcile.
//
// Kubernetes counterpart: client-go v0.37.2 tools/record (event.go:
// eventBroadcasterImpl, recordToSink; events_cache.go: EventCorrelator and
// eventLogger, which aggregates repeats into one Event whose count and
// lastTimestamp grow; EventSourceObjectSpamFilter, the token bucket per
// source and object).
//
// Like client-go, a source may report 25 events about one object, then one
// every five minutes (spam.go); more are dropped. That keeps a ReplicaSet
// scaled to 1000 from costing 1000 SuccessfulCreate writes.
//
// What we simplify: repeats are folded only when every field matches (the
// same object, type, reason and message); Kubernetes also folds ten
// different messages with one reason into a "(combined from similar
// events)" Event. The buffer is bounded (1000, as in client-go) and a full
// buffer drops the event with a log line rather than blocking the caller.
// The memory of what was already written, and the buckets, are bounded too
// (4096 keys, oldest forgotten first, where client-go keeps an LRU).
package record
