package replicaset

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"kubeloop/workqueue"
)

// ExpectationsTimeout is how long a controller trusts its expectations. If
// the informer has not reported every create or delete by then (a watch event
// lost, a pod created by us but instantly deleted by someone else), the
// controller syncs anyway instead of waiting forever. Kubernetes uses the same
// 5 minutes.
const ExpectationsTimeout = 5 * time.Minute

// controlleeExpectations is what one ReplicaSet still waits to see: add pod
// creations and del pod deletions. The counters are atomics because the pod
// event handlers lower them while a worker may be reading them.
type controlleeExpectations struct {
	add       atomic.Int64
	del       atomic.Int64
	key       string
	timestamp time.Time
}

// Fulfilled is true once every expected create and delete was observed.
func (e *controlleeExpectations) Fulfilled() bool {
	return e.add.Load() <= 0 && e.del.Load() <= 0
}

// ControllerExpectations remembers, per ReplicaSet key, how many pod
// creations and which pod deletions the controller has asked the API for but
// not yet seen come back through its informer. While some are outstanding
// the cache is known to be behind the controller's own writes, so acting on
// it would create (or delete) the same pods twice: SatisfiedExpectations
// says "not yet".
//
// Deletions are tracked by pod key, not just counted, so that a pod that is
// observed deleted twice (an update carrying deletionTimestamp, then the
// delete itself) lowers the count once.
//
// Kubernetes: pkg/controller/controller_utils.go, ControllerExpectations and
// UIDTrackingControllerExpectations (here one type).
type ControllerExpectations struct {
	clock workqueue.Clock
	log   *slog.Logger

	mu sync.Mutex
	// expectations and deleteKeys are keyed by ReplicaSet key; an entry in
	// deleteKeys exists only while its ReplicaSet has an expectations entry.
	expectations map[string]*controlleeExpectations
	deleteKeys   map[string]map[string]struct{}
}

// NewControllerExpectations returns an empty store; clock nil means the
// wall clock.
func NewControllerExpectations(clock workqueue.Clock, log *slog.Logger) *ControllerExpectations {
	if clock == nil {
		clock = workqueue.RealClock{}
	}
	if log == nil {
		log = slog.Default()
	}
	return &ControllerExpectations{
		clock:        clock,
		log:          log,
		expectations: map[string]*controlleeExpectations{},
		deleteKeys:   map[string]map[string]struct{}{},
	}
}

// SatisfiedExpectations reports whether the controller may act on the cache
// for key: nothing was ever expected, everything expected was seen, or the
// expectations are older than ExpectationsTimeout.
func (r *ControllerExpectations) SatisfiedExpectations(key string) bool {
	r.mu.Lock()
	e, ok := r.expectations[key]
	r.mu.Unlock()
	switch {
	case !ok:
		return true
	case e.Fulfilled():
		return true
	case r.clock.Since(e.timestamp) > ExpectationsTimeout:
		r.log.Info("expectations expired", "key", key, "add", e.add.Load(), "del", e.del.Load())
		return true
	default:
		return false
	}
}

// ExpectCreations records that n pods are about to be created for key,
// replacing whatever was expected before (the caller only sets new
// expectations once the old ones are satisfied or expired).
func (r *ControllerExpectations) ExpectCreations(key string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.setLocked(key, int64(n), 0)
	delete(r.deleteKeys, key)
}

// ExpectDeletions records that the pods with podKeys are about to be deleted
// for key.
func (r *ControllerExpectations) ExpectDeletions(key string, podKeys []string) {
	set := make(map[string]struct{}, len(podKeys))
	for _, k := range podKeys {
		set[k] = struct{}{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.setLocked(key, 0, int64(len(set)))
	r.deleteKeys[key] = set
}

func (r *ControllerExpectations) setLocked(key string, add, del int64) {
	e := &controlleeExpectations{key: key, timestamp: r.clock.Now()}
	e.add.Store(add)
	e.del.Store(del)
	r.expectations[key] = e
}

// CreationObserved lowers the expected creations of key by one: the informer
// saw one of our pods appear, or a create we had counted on was not made.
func (r *ControllerExpectations) CreationObserved(key string) {
	r.mu.Lock()
	e, ok := r.expectations[key]
	r.mu.Unlock()
	if ok {
		e.add.Add(-1)
	}
}

// DeletionObserved lowers the expected deletions of key by one if podKey is
// one of the pods it waits for, and forgets podKey so a second observation
// of the same pod does not count again.
func (r *ControllerExpectations) DeletionObserved(key, podKey string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	keys := r.deleteKeys[key]
	if _, waiting := keys[podKey]; !waiting {
		return
	}
	delete(keys, podKey)
	if e, ok := r.expectations[key]; ok {
		e.del.Add(-1)
	}
}

// DeleteExpectations forgets key, so a ReplicaSet re-created under the same
// name starts clean.
func (r *ControllerExpectations) DeleteExpectations(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.expectations, key)
	delete(r.deleteKeys, key)
}

// GetExpectations returns the outstanding creations and deletions of key and
// whether it has expectations at all (tests and logs).
func (r *ControllerExpectations) GetExpectations(key string) (add, del int64, exists bool) {
	r.mu.Lock()
	e, ok := r.expectations[key]
	r.mu.Unlock()
	if !ok {
		return 0, 0, false
	}
	return e.add.Load(), e.del.Load(), true
}
