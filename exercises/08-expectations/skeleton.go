package expectations

import (
	"log/slog"
	"sync"
	"time"

	"kubeloop/workqueue"
)

// ExpectationsTimeout is how long the controller trusts its expectations:
// if the watch has not reported every create and delete by then (an event
// lost, a pod deleted by someone else before we saw it), the controller
// syncs anyway rather than wait forever. Kubernetes uses the same 5
// minutes.
const ExpectationsTimeout = 5 * time.Minute

// controlleeExpectations is what one ReplicaSet still waits to see.
type controlleeExpectations struct {
	// add is how many pod creations are still to be observed; del how many
	// deletions. Observing more than expected takes them below zero, which
	// still counts as fulfilled.
	add, del int64
	// deleteKeys are the pods ("namespace/name") whose deletion is still to
	// be observed: a pod seen deleted twice (an update carrying its
	// deletionTimestamp, then the delete itself) counts once.
	deleteKeys map[string]struct{}
	// timestamp is when these expectations were set.
	timestamp time.Time
}

// ControllerExpectations records, per ReplicaSet key ("namespace/name"),
// the creations and deletions the controller asked the API for and has not
// yet seen through its informer. Event handlers lower them while workers
// read and set them: every method takes mu.
type ControllerExpectations struct {
	clock workqueue.Clock
	log   *slog.Logger

	mu sync.Mutex
	// expectations has an entry for each ReplicaSet with expectations; no
	// entry means nothing is expected.
	expectations map[string]*controlleeExpectations
}

// NewControllerExpectations returns an empty store on clock (nil: the
// wall clock).
func NewControllerExpectations(clock workqueue.Clock) *ControllerExpectations {
	if clock == nil {
		clock = workqueue.RealClock{}
	}
	return &ControllerExpectations{
		clock:        clock,
		log:          slog.Default().With("component", "expectations"),
		expectations: map[string]*controlleeExpectations{},
	}
}

// GetExpectations returns the outstanding creations and deletions of key,
// and whether it has an entry at all (for logs and tests).
func (r *ControllerExpectations) GetExpectations(key string) (add, del int64, exists bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.expectations[key]
	if !ok {
		return 0, 0, false
	}
	return e.add, e.del, true
}

// DeleteExpectations forgets key: a ReplicaSet deleted and re-created
// under the same name starts clean.
func (r *ControllerExpectations) DeleteExpectations(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.expectations, key)
}
