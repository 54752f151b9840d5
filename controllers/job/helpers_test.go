package job

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

func ptr[T any](v T) *T { return &v }

// newJob is a Job whose pods run script with sh -c and are never restarted
// in place.
func newJob(ns, name, script string, completions, parallelism int32) *api.Job {
	return &api.Job{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns},
		Spec: api.JobSpec{
			Completions: &completions,
			Parallelism: &parallelism,
			Template: api.PodTemplateSpec{Spec: api.PodSpec{
				RestartPolicy: api.RestartPolicyNever,
				Containers:    []api.Container{{Name: "work", Image: "busybox", Command: []string{"sh", "-c", script}}},
			}},
		},
	}
}

func jobs() *client.Resource[*api.Job] { return client.For[*api.Job](testCluster.Client) }
func pods() *client.Resource[*api.Pod] { return client.For[*api.Pod](testCluster.Client) }

func createJob(t *testing.T, j *api.Job) *api.Job {
	t.Helper()
	out, err := jobs().Namespace(j.Namespace).Create(clustertest.Context(t), j, client.CreateOptions{})
	require.NoError(t, err)
	return out
}

func getJob(t *testing.T, ns, name string) *api.Job {
	t.Helper()
	j, err := jobs().Namespace(ns).Get(clustertest.Context(t), name, client.GetOptions{})
	require.NoError(t, err)
	return j
}

func listPods(t *testing.T, ns string) []*api.Pod {
	t.Helper()
	l, err := pods().Namespace(ns).List(clustertest.Context(t), client.ListOptions{})
	require.NoError(t, err)
	return l.Items
}

func jobCondition(j *api.Job, ct api.JobConditionType) *api.JobCondition {
	return findConditionByType(j.Status.Conditions, ct)
}

func isTrue(j *api.Job, ct api.JobConditionType) bool {
	c := jobCondition(j, ct)
	return c != nil && c.Status == api.ConditionTrue
}

// conditionTypes lists a Job's condition types in order.
func conditionTypes(j *api.Job) []api.JobConditionType {
	var out []api.JobConditionType
	for _, c := range j.Status.Conditions {
		out = append(out, c.Type)
	}
	return out
}

// history watches one namespace's objects of a kind and keeps every
// version seen, so a test can check states that do not last and invariants
// that must hold at every step.
type history[T api.Object] struct {
	mu     sync.Mutex
	events []historyEvent[T]
}

type historyEvent[T api.Object] struct {
	typ api.EventType
	obj T
}

func watchHistory[T api.Object](t *testing.T, ns string) *history[T] {
	t.Helper()
	w, err := client.For[T](testCluster.Client).Namespace(ns).Watch(clustertest.Context(t), client.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	h := &history[T]{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			obj, ok := ev.Object.(T)
			if !ok {
				continue
			}
			h.mu.Lock()
			h.events = append(h.events, historyEvent[T]{ev.Type, obj})
			h.mu.Unlock()
		}
	}()
	t.Cleanup(func() { w.Stop(); <-done })
	return h
}

func (h *history[T]) snapshot() []historyEvent[T] {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]historyEvent[T](nil), h.events...)
}

// any reports whether some version satisfied fn.
func (h *history[T]) any(fn func(T) bool) bool {
	for _, ev := range h.snapshot() {
		if ev.typ != api.Deleted && fn(ev.obj) {
			return true
		}
	}
	return false
}

// maxActivePods replays a pod history and returns the largest number of
// pods that were active (not finished, not being deleted) at one moment.
func maxActivePods(h *history[*api.Pod]) int {
	state := map[string]*api.Pod{}
	most := 0
	for _, ev := range h.snapshot() {
		if ev.typ == api.Deleted {
			delete(state, ev.obj.UID)
		} else {
			state[ev.obj.UID] = ev.obj
		}
		n := 0
		for _, p := range state {
			if p.DeletionTimestamp == nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// events lists the reasons and messages of the events about an object.
func events(t *testing.T, ns, name string) map[string][]string {
	t.Helper()
	l, err := client.For[*api.Event](testCluster.Client).Namespace(ns).List(clustertest.Context(t), client.ListOptions{})
	require.NoError(t, err)
	out := map[string][]string{}
	for _, e := range l.Items {
		if e.InvolvedObject.Name == name {
			out[e.Reason] = append(out[e.Reason], e.Type+" "+e.Message)
		}
	}
	return out
}
