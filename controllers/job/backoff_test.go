package job

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// finishedPod is a pod whose one container finished at t.
func finishedPod(uid string, phase api.PodPhase, t time.Time) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{UID: uid},
		Status: api.PodStatus{Phase: phase, ContainerStatuses: []api.ContainerStatus{{
			State: api.ContainerState{Terminated: &api.ContainerStateTerminated{FinishedAt: api.NewTime(t)}},
		}}},
	}
}

func TestPodFailureBackOffDoublesPerFailureUpToTheCap(t *testing.T) {
	s := newBackoffStore()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var waits []time.Duration
	for i := range 9 {
		r := s.newBackoffRecord("ns/j", nil, []*api.Pod{finishedPod("f"+string(rune('a'+i)), api.PodFailed, t0)})
		s.updateBackoffRecord(r)
		waits = append(waits, r.getRemainingTime(t0, DefaultPodFailureBackOff, MaxPodFailureBackOff))
	}
	sec := time.Second
	require.Equal(t, []time.Duration{10 * sec, 20 * sec, 40 * sec, 80 * sec, 160 * sec, 320 * sec, 600 * sec, 600 * sec, 600 * sec}, waits)

	r := s.newBackoffRecord("ns/j", nil, nil)
	require.Equal(t, 4*time.Minute, r.getRemainingTime(t0.Add(6*time.Minute), DefaultPodFailureBackOff, MaxPodFailureBackOff),
		"the wait runs from the last failure")
	require.Zero(t, r.getRemainingTime(t0.Add(11*time.Minute), DefaultPodFailureBackOff, MaxPodFailureBackOff))
}

func TestSuccessResetsTheBackOffToTheFailuresAfterIt(t *testing.T) {
	s := newBackoffStore()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s.updateBackoffRecord(s.newBackoffRecord("k", nil, []*api.Pod{finishedPod("a", api.PodFailed, t0), finishedPod("b", api.PodFailed, t0)}))
	r := s.newBackoffRecord("k",
		[]*api.Pod{finishedPod("ok", api.PodSucceeded, t0.Add(10*time.Second))},
		[]*api.Pod{finishedPod("c", api.PodFailed, t0.Add(5*time.Second)), finishedPod("d", api.PodFailed, t0.Add(20*time.Second))})
	require.Equal(t, int32(1), r.failuresAfterLastSuccess, "only the failure after the success counts")
	require.Equal(t, t0.Add(20*time.Second), *r.lastFailureTime)

	r = s.newBackoffRecord("k", []*api.Pod{finishedPod("ok", api.PodSucceeded, t0)}, nil)
	require.Zero(t, r.failuresAfterLastSuccess)
	require.Zero(t, r.getRemainingTime(t0, DefaultPodFailureBackOff, MaxPodFailureBackOff))
}

func TestFinishedTimeFallsBackFromContainersToReadyToDeletion(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := finishedPod("a", api.PodFailed, t0)
	require.Equal(t, t0, getFinishedTime(p))

	p.Status.ContainerStatuses[0].State = api.ContainerState{Running: &api.ContainerStateRunning{}}
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: api.NewTime(t0.Add(time.Minute))}}
	require.Equal(t, t0.Add(time.Minute), getFinishedTime(p))

	p.Status.Conditions = nil
	del := api.NewTime(t0.Add(time.Hour))
	grace := int64(30)
	p.DeletionTimestamp, p.DeletionGracePeriodSeconds = &del, &grace
	require.Equal(t, t0.Add(time.Hour-30*time.Second), getFinishedTime(p))

	p.DeletionTimestamp = nil
	p.CreationTimestamp = api.NewTime(t0.Add(-time.Hour))
	require.Equal(t, t0.Add(-time.Hour), getFinishedTime(p))
}
