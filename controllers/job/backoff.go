package job

import (
	"sort"
	"sync"
	"time"

	"kubeloop/api"
)

// Kubernetes' pod-failure back-off: a failed pod's replacement waits 10 s,
// doubled for every further failure since the last success, up to 10
// minutes. (The Job documentation says "capped at six minutes", the value
// before 1.28; the code, job_controller.go MaxJobPodFailureBackOff, says 10.)
const (
	DefaultPodFailureBackOff = 10 * time.Second
	MaxPodFailureBackOff     = 10 * time.Minute
)

// backoffRecord is what the controller remembers of a Job's failures: how
// many pods failed since the last success, and when the last one did.
// Kubernetes: backoff_utils.go, backoffRecord.
type backoffRecord struct {
	key                      string
	failuresAfterLastSuccess int32
	lastFailureTime          *time.Time
}

// backoffStore holds one record per Job key. It lives in memory only, as in
// Kubernetes: a restarted controller forgets the back-off (the pods'
// counts survive in the status; the delays do not).
type backoffStore struct {
	mu      sync.Mutex
	records map[string]backoffRecord
}

func newBackoffStore() *backoffStore {
	return &backoffStore{records: map[string]backoffRecord{}}
}

func (s *backoffStore) updateBackoffRecord(r backoffRecord) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records[r.key] = r
}

func (s *backoffStore) removeBackoffRecord(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.records, key)
}

// newBackoffRecord is the Job's record after this sync's newly finished
// pods: failures add up; a success resets the count, so only the failures
// that finished after the latest new success remain.
func (s *backoffStore) newBackoffRecord(key string, newSucceeded, newFailed []*api.Pod) backoffRecord {
	s.mu.Lock()
	r, ok := s.records[key]
	s.mu.Unlock()
	if !ok {
		r = backoffRecord{key: key}
	}
	succeeded := sortedByFinishedTime(newSucceeded)
	failed := sortedByFinishedTime(newFailed)
	switch {
	case len(succeeded) == 0 && len(failed) == 0:
		return r
	case len(succeeded) == 0:
		r.failuresAfterLastSuccess += int32(len(failed))
		last := getFinishedTime(failed[len(failed)-1])
		r.lastFailureTime = &last
		return r
	}
	r.failuresAfterLastSuccess, r.lastFailureTime = 0, nil
	lastSuccess := getFinishedTime(succeeded[len(succeeded)-1])
	for i := len(failed) - 1; i >= 0; i-- {
		t := getFinishedTime(failed[i])
		if !t.After(lastSuccess) {
			break
		}
		if r.lastFailureTime == nil {
			r.lastFailureTime = &t
		}
		r.failuresAfterLastSuccess++
	}
	return r
}

// getRemainingTime is how long pod creation must still wait at now: base
// doubled for each failure after the first, capped at max, counted from the
// last failure.
func (r backoffRecord) getRemainingTime(now time.Time, base, max time.Duration) time.Duration {
	if r.failuresAfterLastSuccess == 0 || r.lastFailureTime == nil {
		return 0
	}
	delay := base
	for i := int32(1); i < r.failuresAfterLastSuccess; i++ {
		delay *= 2
		if delay >= max {
			delay = max
			break
		}
	}
	elapsed := now.Sub(*r.lastFailureTime)
	if delay < elapsed {
		return 0
	}
	return delay - elapsed
}

func sortedByFinishedTime(pods []*api.Pod) []*api.Pod {
	out := append([]*api.Pod(nil), pods...)
	sort.SliceStable(out, func(i, j int) bool { return getFinishedTime(out[i]).Before(getFinishedTime(out[j])) })
	return out
}

// getFinishedTime is when a pod finished: its last container's finishedAt
// if all have terminated, else when it stopped being ready, else its
// deletion time minus the grace period, else its creation.
// Kubernetes: backoff_utils.go, getFinishedTime.
func getFinishedTime(p *api.Pod) time.Time {
	var latest *time.Time
	allTerminated := len(p.Status.ContainerStatuses) > 0
	for _, cs := range p.Status.ContainerStatuses {
		term := cs.State.Terminated
		if term == nil || term.FinishedAt.IsZero() {
			allTerminated = false
			break
		}
		if latest == nil || latest.Before(term.FinishedAt.Time) {
			t := term.FinishedAt.Time
			latest = &t
		}
	}
	if allTerminated {
		return *latest
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady && c.Status == api.ConditionFalse && !c.LastTransitionTime.IsZero() {
			return c.LastTransitionTime.Time
		}
	}
	if p.DeletionTimestamp != nil {
		grace := int64(0)
		if p.DeletionGracePeriodSeconds != nil {
			grace = *p.DeletionGracePeriodSeconds
		}
		return p.DeletionTimestamp.Add(-time.Duration(grace) * time.Second)
	}
	return p.CreationTimestamp.Time
}
