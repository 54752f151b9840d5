package kubelet

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
)

const (
	waitFor = 30 * time.Second
	tick    = 20 * time.Millisecond
)

// testCluster is one apiserver + etcd for the package; each test starts
// the kubelets it needs, with node names and namespaces of its own.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{}, func(c *cluster.Cluster) { testCluster = c })
}

// fastOptions are the test timings: everything in milliseconds.
func fastOptions(node string) Options {
	return Options{
		NodeName:           node,
		HeartbeatInterval:  100 * time.Millisecond,
		NodeStatusInterval: 100 * time.Millisecond,
		PLEGPeriod:         50 * time.Millisecond,
		RestartBackoffBase: 100 * time.Millisecond,
		RestartBackoffMax:  400 * time.Millisecond,
	}
}

// startKubelet runs a kubelet until the test ends, and waits for its node
// to be registered.
func startKubelet(t *testing.T, opts Options) *Kubelet {
	t.Helper()
	cl, err := testCluster.NewClient("kubelet-" + opts.NodeName)
	require.NoError(t, err)
	kl, err := New(cl, opts)
	require.NoError(t, err)
	clustertest.Go(t, func(ctx context.Context) {
		if err := kl.Run(ctx); err != nil {
			t.Errorf("kubelet %s: %v", opts.NodeName, err)
		}
	})
	// The lease is renewed only after registration; its microsecond
	// renewTime tells this kubelet from a previous one of the same name.
	started := time.Now()
	require.Eventually(t, func() bool {
		l, err := client.For[*api.Lease](testCluster.Client).Namespace(api.NamespaceNodeLease).Get(clustertest.Context(t), opts.NodeName, client.GetOptions{})
		return err == nil && l.Spec.RenewTime != nil && l.Spec.RenewTime.After(started) && nodeReady(getNode(t, opts.NodeName))
	}, waitFor, tick)
	return kl
}

func getNode(t *testing.T, name string) *api.Node {
	t.Helper()
	n, err := client.For[*api.Node](testCluster.Client).Get(clustertest.Context(t), name, client.GetOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	require.NoError(t, err)
	return n
}

func nodeReady(n *api.Node) bool {
	if n == nil {
		return false
	}
	for _, c := range n.Status.Conditions {
		if c.Type == api.NodeReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

// newPod is a one-container pod already bound to node.
func newPod(ns, name, node string, annotations map[string]string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, Annotations: annotations},
		Spec: api.PodSpec{
			NodeName:   node,
			Containers: []api.Container{{Name: "web", Image: "nginx:1.27"}},
		},
	}
}

func createPod(t *testing.T, pod *api.Pod) *api.Pod {
	t.Helper()
	out, err := client.For[*api.Pod](testCluster.Client).Namespace(pod.Namespace).Create(clustertest.Context(t), pod, client.CreateOptions{})
	require.NoError(t, err)
	return out
}

func getPod(t *testing.T, ns, name string) *api.Pod {
	t.Helper()
	p, err := client.For[*api.Pod](testCluster.Client).Namespace(ns).Get(clustertest.Context(t), name, client.GetOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	require.NoError(t, err)
	return p
}

// podHistory watches the namespace's pods and keeps every version seen, so
// a test can assert on states that do not last (Pending, CrashLoopBackOff).
type podHistory struct {
	mu       sync.Mutex
	versions []*api.Pod
	deleted  []string
}

func watchPods(t *testing.T, ns string) *podHistory {
	t.Helper()
	w, err := client.For[*api.Pod](testCluster.Client).Namespace(ns).Watch(clustertest.Context(t), client.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	h := &podHistory{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			pod, ok := ev.Object.(*api.Pod)
			if !ok {
				continue
			}
			h.mu.Lock()
			if ev.Type == api.Deleted {
				h.deleted = append(h.deleted, pod.Name)
			} else {
				h.versions = append(h.versions, pod)
			}
			h.mu.Unlock()
		}
	}()
	t.Cleanup(func() { w.Stop(); <-done })
	return h
}

// any reports whether some version of the pod satisfied fn.
func (h *podHistory) any(name string, fn func(*api.Pod) bool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, p := range h.versions {
		if p.Name == name && fn(p) {
			return true
		}
	}
	return false
}

func (h *podHistory) wasDeleted(name string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, n := range h.deleted {
		if n == name {
			return true
		}
	}
	return false
}

func condition(p *api.Pod, t api.PodConditionType) *api.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == t {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

func podReady(p *api.Pod) bool {
	c := condition(p, api.PodReady)
	return p.Status.Phase == api.PodRunning && c != nil && c.Status == api.ConditionTrue
}

// eventReasons lists the reasons of the events about a pod.
func eventReasons(t *testing.T, ns, pod string) map[string]string {
	t.Helper()
	l, err := client.For[*api.Event](testCluster.Client).Namespace(ns).List(clustertest.Context(t), client.ListOptions{})
	require.NoError(t, err)
	out := map[string]string{}
	for _, e := range l.Items {
		if e.InvolvedObject.Name == pod {
			out[e.Reason] = e.Message
		}
	}
	return out
}

func testCtxCancel(t *testing.T) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return ctx, cancel
}
