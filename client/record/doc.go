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
// lastTimestamp grow).
//
// What we simplify: repeats are folded only when every field matches (the
// same object, type, reason and message); Kubernetes also groups similar
// messages and rate-limits noisy sources with a token bucket per object. The
// buffer is bounded (1000, as in client-go) and a full buffer drops the event
// with a log line rather than blocking the caller. The memory of what was
// already written is bounded too (4096 keys, oldest forgotten first, where
// client-go keeps an LRU).
package record
