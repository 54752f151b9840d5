package job

import (
	"encoding/json"
	"sync"

	"kubeloop/api"
)

// uidTrackingExpectations remembers, per Job key, the pods whose tracking
// finalizer the controller has asked to remove but not yet seen removed in
// its cache. Until then the cache still shows the finalizer, and a sync
// must not count those pods a second time.
// Kubernetes: tracking_utils.go, uidTrackingExpectations.
type uidTrackingExpectations struct {
	mu sync.Mutex
	// uids maps a Job key to the pod UIDs still expected; a key is present
	// only while its set is non-empty.
	uids map[string]map[string]bool
}

func newUIDTrackingExpectations() *uidTrackingExpectations {
	return &uidTrackingExpectations{uids: map[string]map[string]bool{}}
}

// getExpectedUIDs returns a copy of the UIDs expected for key.
func (u *uidTrackingExpectations) getExpectedUIDs(key string) map[string]bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make(map[string]bool, len(u.uids[key]))
	for uid := range u.uids[key] {
		out[uid] = true
	}
	return out
}

func (u *uidTrackingExpectations) expectFinalizersRemoved(key string, uids []string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	set := u.uids[key]
	if set == nil {
		set = map[string]bool{}
		u.uids[key] = set
	}
	for _, uid := range uids {
		set[uid] = true
	}
}

func (u *uidTrackingExpectations) finalizerRemovalObserved(key, uid string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.uids[key], uid)
	if len(u.uids[key]) == 0 {
		delete(u.uids, key)
	}
}

func (u *uidTrackingExpectations) deleteExpectations(key string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.uids, key)
}

func hasJobTrackingFinalizer(p *api.Pod) bool {
	for _, f := range p.Finalizers {
		if f == api.JobTrackingFinalizer {
			return true
		}
	}
	return false
}

// removeTrackingFinalizerPatch is the strategic merge patch that takes the
// tracking finalizer off a pod, whatever its other finalizers are; nil if
// it has none. Kubernetes: job_controller.go, removeTrackingFinalizerPatch.
func removeTrackingFinalizerPatch(p *api.Pod) []byte {
	if !hasJobTrackingFinalizer(p) {
		return nil
	}
	patch, _ := json.Marshal(map[string]any{
		"metadata": map[string]any{
			"$deleteFromPrimitiveList/finalizers": []string{api.JobTrackingFinalizer},
		},
	})
	return patch
}

// uncountedTerminatedPods is status.uncountedTerminatedPods as sets.
type uncountedTerminatedPods struct {
	succeeded, failed map[string]bool
}

func newUncountedTerminatedPods(in api.UncountedTerminatedPods) *uncountedTerminatedPods {
	u := &uncountedTerminatedPods{succeeded: map[string]bool{}, failed: map[string]bool{}}
	for _, uid := range in.Succeeded {
		u.succeeded[uid] = true
	}
	for _, uid := range in.Failed {
		u.failed[uid] = true
	}
	return u
}

// filterInUncountedUIDs keeps the UIDs of uncounted that are in include.
func filterInUncountedUIDs(uncounted []string, include map[string]bool) []string {
	var out []string
	for _, uid := range uncounted {
		if include[uid] {
			out = append(out, uid)
		}
	}
	return out
}

// cleanUncountedPodsWithoutFinalizers moves the uncounted pods whose
// finalizer is gone (not in uidsWithFinalizer) into the counters: the
// second half of counting a pod. It reports whether the status changed.
func cleanUncountedPodsWithoutFinalizers(status *api.JobStatus, uidsWithFinalizer map[string]bool) bool {
	updated := false
	if status.UncountedTerminatedPods == nil {
		status.UncountedTerminatedPods = &api.UncountedTerminatedPods{}
	}
	u := status.UncountedTerminatedPods
	if kept := filterInUncountedUIDs(u.Succeeded, uidsWithFinalizer); len(kept) != len(u.Succeeded) {
		status.Succeeded += int32(len(u.Succeeded) - len(kept))
		u.Succeeded, updated = kept, true
	}
	if kept := filterInUncountedUIDs(u.Failed, uidsWithFinalizer); len(kept) != len(u.Failed) {
		status.Failed += int32(len(u.Failed) - len(kept))
		u.Failed, updated = kept, true
	}
	return updated
}
