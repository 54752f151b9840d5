package controllers_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
)

// testCluster is an API-only cluster shared by the package's tests; each
// test starts the managers it needs and isolates itself by namespace (and
// by lease name).
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{}, func(c *cluster.Cluster) { testCluster = c })
}

const (
	deadline = 30 * time.Second
	tick     = 20 * time.Millisecond
)

func newNamespace(t *testing.T, cl *client.Client, base string) string {
	t.Helper()
	ns := base + "-" + uuid.NewString()[:8]
	_, err := client.For[*api.Namespace](cl).Create(context.Background(),
		&api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}, client.CreateOptions{})
	require.NoError(t, err)
	return ns
}

func newReplicaSet(name string, replicas int32) *api.ReplicaSet {
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
			},
		},
	}
}

func countPods(t *testing.T, cl *client.Client, ns string) int {
	t.Helper()
	l, err := client.For[*api.Pod](cl).Namespace(ns).List(context.Background(), client.ListOptions{})
	require.NoError(t, err)
	return len(l.Items)
}

// podWatch follows the pods of a namespace through a watch and remembers
// the most that ever existed at once, which a poll could miss.
type podWatch struct {
	mu   sync.Mutex
	live map[string]bool
	max  int
}

func watchPods(t *testing.T, cl *client.Client, ns string) *podWatch {
	t.Helper()
	pods := client.For[*api.Pod](cl).Namespace(ns)
	l, err := pods.List(context.Background(), client.ListOptions{})
	require.NoError(t, err)
	pw := &podWatch{live: map[string]bool{}}
	for _, p := range l.Items {
		pw.live[p.Name] = true
	}
	pw.max = len(pw.live)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	rv := l.ResourceVersion
	go func() {
		defer close(done)
		// A watch may end (server timeout); pick it up where it left off.
		for ctx.Err() == nil {
			w, err := pods.Watch(ctx, client.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true})
			if err != nil {
				select {
				case <-ctx.Done():
				case <-time.After(50 * time.Millisecond):
				}
				continue
			}
			for ev := range w.ResultChan() {
				if ev.Type == api.Error {
					continue
				}
				m := ev.Object.GetObjectMeta()
				rv = m.ResourceVersion
				pw.mu.Lock()
				switch ev.Type {
				case api.Added:
					pw.live[m.Name] = true
				case api.Deleted:
					delete(pw.live, m.Name)
				}
				pw.max = max(pw.max, len(pw.live))
				pw.mu.Unlock()
			}
			w.Stop()
		}
	}()
	return pw
}

func (pw *podWatch) counts() (live, most int) {
	pw.mu.Lock()
	defer pw.mu.Unlock()
	return len(pw.live), pw.max
}
