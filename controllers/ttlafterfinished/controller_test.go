package ttlafterfinished

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

func newJob(ns, name, script string, ttl *int32) *api.Job {
	return &api.Job{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns},
		Spec: api.JobSpec{
			TTLSecondsAfterFinished: ttl,
			BackoffLimit:            ptr(int32(0)),
			Template: api.PodTemplateSpec{Spec: api.PodSpec{
				RestartPolicy: api.RestartPolicyNever,
				Containers:    []api.Container{{Name: "work", Image: "busybox", Command: []string{"sh", "-c", script}}},
			}},
		},
	}
}

func ptr[T any](v T) *T { return &v }

func jobs(ns string) *client.Resource[*api.Job] {
	return client.For[*api.Job](testCluster.Client).Namespace(ns)
}

// jobVersions records every version of the namespace's Jobs, and deletions.
type jobVersions struct {
	mu       sync.Mutex
	versions []*api.Job
	deleted  map[string]bool
}

func watchJobs(t *testing.T, ns string) *jobVersions {
	t.Helper()
	w, err := jobs(ns).Watch(clustertest.Context(t), client.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	h := &jobVersions{deleted: map[string]bool{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			j, ok := ev.Object.(*api.Job)
			if !ok {
				continue
			}
			h.mu.Lock()
			if ev.Type == api.Deleted {
				h.deleted[j.Name] = true
			} else {
				h.versions = append(h.versions, j)
			}
			h.mu.Unlock()
		}
	}()
	t.Cleanup(func() { w.Stop(); <-done })
	return h
}

func (h *jobVersions) wasDeleted(name string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.deleted[name]
}

// first returns the first version of name that satisfies fn, or nil.
func (h *jobVersions) first(name string, fn func(*api.Job) bool) *api.Job {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, j := range h.versions {
		if j.Name == name && fn(j) {
			return j
		}
	}
	return nil
}

func finishedCondition(j *api.Job) *api.JobCondition {
	for i, c := range j.Status.Conditions {
		if (c.Type == api.JobComplete || c.Type == api.JobFailed) && c.Status == api.ConditionTrue {
			return &j.Status.Conditions[i]
		}
	}
	return nil
}

func TestFinishedJobIsDeletedWithItsPodsAfterItsTTL(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	h := watchJobs(t, ns)
	_, err := jobs(ns).Create(clustertest.Context(t), newJob(ns, "done", "sleep 0.2", ptr(int32(2))), client.CreateOptions{})
	require.NoError(t, err)

	require.Eventually(t, func() bool { return h.wasDeleted("done") }, waitFor, tick)
	finished := h.first("done", func(j *api.Job) bool { return finishedCondition(j) != nil })
	require.NotNil(t, finished, "the Job finished before it was deleted")
	require.Equal(t, api.JobComplete, finishedCondition(finished).Type)
	deleting := h.first("done", func(j *api.Job) bool { return j.DeletionTimestamp != nil })
	require.NotNil(t, deleting, "the delete cascaded in the foreground: the Job waited for its pods")
	require.Contains(t, deleting.Finalizers, "foregroundDeletion")
	expireAt := finishedCondition(finished).LastTransitionTime.Add(2e9)
	require.False(t, deleting.DeletionTimestamp.Before(expireAt),
		"deleted at %v, not before the TTL ran out at %v", deleting.DeletionTimestamp.Time, expireAt)

	l, err := client.For[*api.Pod](testCluster.Client).Namespace(ns).List(clustertest.Context(t), client.ListOptions{})
	require.NoError(t, err)
	require.Empty(t, l.Items, "the Job's pod went with it")
}

func TestFailedJobWithZeroTTLIsDeletedAtOnce(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	h := watchJobs(t, ns)
	_, err := jobs(ns).Create(clustertest.Context(t), newJob(ns, "broken", "exit 1", ptr(int32(0))), client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return h.wasDeleted("broken") }, waitFor, tick)
	finished := h.first("broken", func(j *api.Job) bool { return finishedCondition(j) != nil })
	require.NotNil(t, finished)
	require.Equal(t, api.JobFailed, finishedCondition(finished).Type)
}

func TestJobWithoutTTLIsKept(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	h := watchJobs(t, ns)
	// Created second, the TTL Job is handled after the one without: once
	// it is gone, the other had every chance to be deleted too.
	_, err := jobs(ns).Create(clustertest.Context(t), newJob(ns, "keep", "true", nil), client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		return h.first("keep", func(j *api.Job) bool { return finishedCondition(j) != nil }) != nil
	}, waitFor, tick)
	_, err = jobs(ns).Create(clustertest.Context(t), newJob(ns, "go", "true", ptr(int32(0))), client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return h.wasDeleted("go") }, waitFor, tick)
	require.False(t, h.wasDeleted("keep"))
	_, err = jobs(ns).Get(clustertest.Context(t), "keep", client.GetOptions{})
	require.NoError(t, err)
}

func TestTimeLeftCountsFromTheFinishedCondition(t *testing.T) {
	finish := api.Now()
	j := &api.Job{Spec: api.JobSpec{TTLSecondsAfterFinished: ptr(int32(30))},
		Status: api.JobStatus{Conditions: []api.JobCondition{
			{Type: api.JobSuccessCriteriaMet, Status: api.ConditionTrue},
			{Type: api.JobComplete, Status: api.ConditionTrue, LastTransitionTime: finish},
		}}}
	left, err := timeLeft(j, finish.Add(10e9))
	require.NoError(t, err)
	require.Equal(t, int64(20e9), int64(left))
	require.True(t, needsCleanup(j))

	j.Status.Conditions[1].LastTransitionTime = api.Time{}
	_, err = timeLeft(j, finish.Time)
	require.ErrorContains(t, err, "unable to find the time when the Job")

	j.Status.Conditions = j.Status.Conditions[:1]
	require.False(t, needsCleanup(j), "not finished: SuccessCriteriaMet alone is not the end")
}
