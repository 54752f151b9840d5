package replicaset

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

const (
	waitFor = 30 * time.Second
	tick    = 20 * time.Millisecond
)

// newReplicaSet is a ReplicaSet selecting app=<app> whose template carries
// app=<app> and tier=web.
func newReplicaSet(ns, name, app string, replicas int32) *api.ReplicaSet {
	labels := map[string]string{"app": app, "tier": "web"}
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx"}}},
			},
		},
	}
}

func createRS(t *testing.T, cl *client.Client, rs *api.ReplicaSet) *api.ReplicaSet {
	t.Helper()
	out, err := client.For[*api.ReplicaSet](cl).Namespace(rs.Namespace).Create(clustertest.Context(t), rs, client.CreateOptions{})
	require.NoError(t, err)
	return out
}

func getRS(t *testing.T, cl *client.Client, ns, name string) *api.ReplicaSet {
	t.Helper()
	rs, err := client.For[*api.ReplicaSet](cl).Namespace(ns).Get(clustertest.Context(t), name, client.GetOptions{})
	require.NoError(t, err)
	return rs
}

// scaleTo sets spec.replicas through the scale subresource.
func scaleTo(t *testing.T, cl *client.Client, ns, name string, n int32) {
	t.Helper()
	rsc := client.For[*api.ReplicaSet](cl).Namespace(ns)
	err := client.RetryOnConflict(client.DefaultRetry, func() error {
		s, err := rsc.GetScale(clustertest.Context(t), name)
		if err != nil {
			return err
		}
		s.Spec.Replicas = n
		_, err = rsc.UpdateScale(clustertest.Context(t), name, s, client.UpdateOptions{})
		return err
	})
	require.NoError(t, err)
}

// listPods reads the namespace's pods from the API (not a cache).
func listPods(t *testing.T, cl *client.Client, ns string, selector string) []*api.Pod {
	t.Helper()
	l, err := client.For[*api.Pod](cl).Namespace(ns).List(clustertest.Context(t), client.ListOptions{LabelSelector: selector})
	require.NoError(t, err)
	return l.Items
}

// requireConverged waits until the API holds exactly n pods selected by
// selector and the ReplicaSet's status says so for its current generation.
func requireConverged(t *testing.T, cl *client.Client, ns, name, selector string, n int) {
	t.Helper()
	require.Eventually(t, func() bool {
		if len(listPods(t, cl, ns, selector)) != n {
			return false
		}
		rs := getRS(t, cl, ns, name)
		return rs.Status.Replicas == int32(n) && rs.Status.ObservedGeneration == rs.Generation
	}, waitFor, tick, "want %d pods of %s/%s", n, ns, name)
	require.Len(t, listPods(t, cl, ns, selector), n)
}

// podTracker follows a namespace's pods through a watch of its own and
// remembers the most that ever existed at once.
type podTracker struct {
	mu   sync.Mutex
	live map[string]bool
	max  int
}

func trackPods(t *testing.T, cl *client.Client, ns string) *podTracker {
	t.Helper()
	ctx := clustertest.Context(t)
	pods := client.For[*api.Pod](cl).Namespace(ns)
	l, err := pods.List(ctx, client.ListOptions{})
	require.NoError(t, err)
	pt := &podTracker{live: map[string]bool{}}
	for _, p := range l.Items {
		pt.live[p.Name] = true
	}
	pt.max = len(pt.live)
	rv := l.ResourceVersion
	w, err := pods.Watch(ctx, client.ListOptions{ResourceVersion: rv})
	require.NoError(t, err)
	go func() {
		for {
			for ev := range w.ResultChan() {
				p, ok := ev.Object.(*api.Pod)
				if !ok {
					continue
				}
				rv = p.ResourceVersion
				pt.observe(ev.Type, p.Name)
			}
			if ctx.Err() != nil {
				return
			}
			// The server ended the watch (timeout): resume where it stopped.
			if w, err = pods.Watch(ctx, client.ListOptions{ResourceVersion: rv}); err != nil {
				return
			}
		}
	}()
	return pt
}

func (pt *podTracker) observe(typ api.EventType, name string) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	switch typ {
	case api.Added, api.Modified:
		pt.live[name] = true
	case api.Deleted:
		delete(pt.live, name)
	}
	pt.max = max(pt.max, len(pt.live))
}

// Max is the largest number of pods seen at once.
func (pt *podTracker) Max() int {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	return pt.max
}

// Len is the number of pods now.
func (pt *podTracker) Len() int {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	return len(pt.live)
}

// markReady writes what a kubelet would: Running with a Ready condition
// that turned true at readySince.
func markReady(t *testing.T, cl *client.Client, pod *api.Pod, readySince time.Time) {
	t.Helper()
	pods := client.For[*api.Pod](cl).Namespace(pod.Namespace)
	err := client.RetryOnConflict(client.DefaultRetry, func() error {
		cur, err := pods.Get(clustertest.Context(t), pod.Name, client.GetOptions{})
		if err != nil {
			return err
		}
		cur.Status.Phase = api.PodRunning
		cur.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(readySince)}}
		_, err = pods.UpdateStatus(clustertest.Context(t), cur, client.UpdateOptions{})
		return err
	})
	require.NoError(t, err)
}

func controllerRefOf(p *api.Pod) *api.OwnerReference { return api.GetControllerOf(&p.ObjectMeta) }
