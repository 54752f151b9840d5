package scheduler

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/workqueue/clocktest"
)

func newTestQueue() (*SchedulingQueue, *clocktest.FakeClock) {
	clock := clocktest.NewFakeClock(time.Unix(1_000_000, 0))
	return newSchedulingQueue(clock, time.Second, 10*time.Second, nil), clock
}

func pendingPod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name, UID: "uid-" + name},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c"}}}}
}

func counts(q *SchedulingQueue) [4]int {
	a, b, u, f := q.PendingPods()
	return [4]int{a, b, u, f}
}

func TestPopHandsOutPodsInArrivalOrder(t *testing.T) {
	q, clock := newTestQueue()
	q.Add(pendingPod("a"))
	clock.Step(time.Millisecond)
	q.Add(pendingPod("b"))
	q.Add(pendingPod("c")) // same timestamp as b: enqueue order decides
	for _, want := range []string{"a", "b", "c"} {
		p, err := q.Pop()
		require.NoError(t, err)
		assert.Equal(t, want, p.Pod.Name)
		assert.Equal(t, 1, p.Attempts)
	}
	assert.Equal(t, [4]int{0, 0, 0, 3}, counts(q))
}

func TestUnschedulablePodWaitsForAClusterEventThenItsBackoff(t *testing.T) {
	q, clock := newTestQueue()
	q.Add(pendingPod("a"))
	p, _ := q.Pop()
	q.AddUnschedulableIfNotPresent(p, true, p.cycle)
	assert.Equal(t, [4]int{0, 0, 1, 0}, counts(q))

	// Backoff expiry alone does not wake it: it waits for an event.
	clock.Step(2 * time.Second)
	q.flushBackoffQCompleted()
	assert.Equal(t, [4]int{0, 0, 1, 0}, counts(q))

	q.MoveAllToActiveOrBackoffQueue()
	assert.Equal(t, [4]int{1, 0, 0, 0}, counts(q), "backoff (1 s) is over: straight to activeQ")
}

func TestMovedPodStillBackingOffWaitsInBackoffQ(t *testing.T) {
	q, clock := newTestQueue()
	q.Add(pendingPod("a"))
	p, _ := q.Pop()
	q.AddUnschedulableIfNotPresent(p, true, p.cycle)
	q.MoveAllToActiveOrBackoffQueue()
	assert.Equal(t, [4]int{0, 1, 0, 0}, counts(q))

	clock.Step(999 * time.Millisecond)
	q.flushBackoffQCompleted()
	assert.Equal(t, [4]int{0, 1, 0, 0}, counts(q))
	clock.Step(time.Millisecond)
	q.flushBackoffQCompleted()
	assert.Equal(t, [4]int{1, 0, 0, 0}, counts(q))
}

func TestFailureAfterAClusterEventDuringTheAttemptGoesToBackoff(t *testing.T) {
	q, _ := newTestQueue()
	q.Add(pendingPod("a"))
	p, _ := q.Pop()
	q.MoveAllToActiveOrBackoffQueue() // a node joined while we were filtering
	q.AddUnschedulableIfNotPresent(p, true, p.cycle)
	assert.Equal(t, [4]int{0, 1, 0, 0}, counts(q))
}

func TestErrorsGoToBackoffNotUnschedulable(t *testing.T) {
	q, _ := newTestQueue()
	q.Add(pendingPod("a"))
	p, _ := q.Pop()
	q.AddUnschedulableIfNotPresent(p, false, p.cycle)
	assert.Equal(t, [4]int{0, 1, 0, 0}, counts(q))
}

func TestBackoffDoublesPerAttemptUpToTheMax(t *testing.T) {
	q, _ := newTestQueue()
	want := []time.Duration{1, 2, 4, 8, 10, 10}
	for i, w := range want {
		p := &QueuedPodInfo{Attempts: i + 1}
		assert.Equal(t, w*time.Second, q.backoffDuration(p), "attempt %d", i+1)
	}
}

func TestStatusOnlyUpdateLeavesUnschedulablePodWaiting(t *testing.T) {
	q, _ := newTestQueue()
	old := pendingPod("a")
	q.Add(old)
	p, _ := q.Pop()
	q.AddUnschedulableIfNotPresent(p, true, p.cycle)

	statusOnly := old.DeepCopy()
	statusOnly.ResourceVersion = "2"
	statusOnly.Status.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse}}
	q.Update(old, statusOnly)
	assert.Equal(t, [4]int{0, 0, 1, 0}, counts(q))

	tolerant := statusOnly.DeepCopy()
	tolerant.Spec.Tolerations = []api.Toleration{{Operator: api.TolerationOpExists}}
	q.Update(statusOnly, tolerant)
	assert.Equal(t, [4]int{0, 1, 0, 0}, counts(q), "a spec change retries the pod (after its backoff)")
}

func TestPodDeletedWhileInFlightIsNotRequeued(t *testing.T) {
	q, _ := newTestQueue()
	q.Add(pendingPod("a"))
	p, _ := q.Pop()
	q.Delete(p.Pod)
	q.AddUnschedulableIfNotPresent(p, false, p.cycle)
	assert.Equal(t, [4]int{0, 0, 0, 0}, counts(q))
}

func TestPopBlocksUntilAPodArrivesAndFailsOnceClosed(t *testing.T) {
	q, _ := newTestQueue()
	got := make(chan string)
	go func() {
		p, err := q.Pop()
		if err != nil {
			got <- err.Error()
			return
		}
		got <- p.Pod.Name
		_, err = q.Pop()
		got <- err.Error()
	}()
	q.Add(pendingPod("late"))
	assert.Equal(t, "late", <-got)
	q.Close()
	assert.Equal(t, errQueueClosed.Error(), <-got)
}
