package scheduler

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
	"kubeloop/informers"
)

const (
	waitFor = 30 * time.Second
	tick    = 20 * time.Millisecond
	// testLabel isolates each test's nodes and pods: every test runs a
	// scheduler of its own whose informers list only objects with
	// testLabel=<its name>, so the nodes of one test are invisible to the
	// others although nodes are cluster-scoped.
	testLabel = "scheduler-test"
)

// testCluster is one apiserver + etcd for the package, with no components:
// each test starts its own scheduler.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{}, func(c *cluster.Cluster) { testCluster = c })
}

// env is one test's world: a namespace, a label value, a scheduler.
type env struct {
	t       testing.TB
	cl      *client.Client
	ns      string
	sched   *Scheduler
	factory *informers.SharedInformerFactory
	rec     *record.Recorder
}

// newEnv creates a namespace and a scheduler whose informers see only
// objects labelled testLabel=<namespace>. start runs it, so a test can
// change the scheduler first.
func newEnv(t testing.TB, opts Options) *env {
	t.Helper()
	name := clustertest.Namespace(t, testCluster)
	cl, err := testCluster.NewClient("scheduler-test-" + name)
	require.NoError(t, err)
	if opts.PodInitialBackoff == 0 {
		opts.PodInitialBackoff = 50 * time.Millisecond
		opts.PodMaxBackoff = 200 * time.Millisecond
	}
	factory := informers.NewClientInformerFactory(cl, 0, func(o *api.ListOptions) {
		o.LabelSelector = testLabel + "=" + name
	})
	rec := record.NewRecorder(cl, ComponentName, "")
	s, err := New(cl, factory, rec, opts)
	require.NoError(t, err)
	return &env{t: t, cl: cl, ns: name, sched: s, factory: factory, rec: rec}
}

// start runs the recorder, the informers and the scheduler until the test
// ends.
func (e *env) start() {
	// Cleanups run last-registered first: the scheduler and the recorder
	// stop before the informers they read from shut down.
	e.t.Cleanup(e.factory.Shutdown)
	clustertest.Go(e.t, e.rec.Run)
	clustertest.Go(e.t, func(ctx context.Context) {
		e.factory.Start(ctx)
		e.sched.Run(ctx)
	})
}

// nodeName makes node names unique across tests (nodes are cluster-scoped).
func (e *env) nodeName(n string) string { return e.ns + "-" + n }

// createNode registers a Ready node with the given allocatable, as a
// kubelet would: the object, then its status through the subresource.
func (e *env) createNode(name, cpu, mem string, mutate ...func(*api.Node)) *api.Node {
	e.t.Helper()
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: e.nodeName(name), Labels: map[string]string{
		testLabel: e.ns, "kubernetes.io/hostname": e.nodeName(name)}}}
	for _, m := range mutate {
		m(n)
	}
	nodes := client.For[*api.Node](e.cl)
	created, err := nodes.Create(clustertest.Context(e.t), n, client.CreateOptions{})
	require.NoError(e.t, err)
	res := api.ResourceList{api.ResourceCPU: api.Quantity(cpu), api.ResourceMemory: api.Quantity(mem), api.ResourcePods: "110"}
	created.Status.Capacity = res
	created.Status.Allocatable = res
	created.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady", LastHeartbeatTime: api.Now()}}
	created, err = nodes.UpdateStatus(clustertest.Context(e.t), created, client.UpdateOptions{})
	require.NoError(e.t, err)
	return created
}

// createPod creates a pending pod requesting cpu and mem ("" = nothing).
func (e *env) createPod(name, cpu, mem string, mutate ...func(*api.Pod)) *api.Pod {
	e.t.Helper()
	p, err := client.For[*api.Pod](e.cl).Namespace(e.ns).Create(clustertest.Context(e.t), e.newPod(name, cpu, mem, mutate...), client.CreateOptions{})
	require.NoError(e.t, err)
	return p
}

func (e *env) newPod(name, cpu, mem string, mutate ...func(*api.Pod)) *api.Pod {
	req := api.ResourceList{}
	if cpu != "" {
		req[api.ResourceCPU] = api.Quantity(cpu)
	}
	if mem != "" {
		req[api.ResourceMemory] = api.Quantity(mem)
	}
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: e.ns, Labels: map[string]string{testLabel: e.ns}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx",
			Resources: api.ResourceRequirements{Requests: req}}}},
	}
	for _, m := range mutate {
		m(p)
	}
	return p
}

func (e *env) getPod(name string) *api.Pod {
	e.t.Helper()
	p, err := client.For[*api.Pod](e.cl).Namespace(e.ns).Get(clustertest.Context(e.t), name, client.GetOptions{})
	require.NoError(e.t, err)
	return p
}

// waitBound waits until the API shows the pod bound and returns its node.
func (e *env) waitBound(name string) string {
	e.t.Helper()
	var node string
	require.Eventually(e.t, func() bool {
		node = e.getPod(name).Spec.NodeName
		return node != ""
	}, waitFor, tick, "pod %s/%s was never bound", e.ns, name)
	return node
}

// podScheduledCondition returns the pod's PodScheduled condition, if any.
func podScheduledCondition(p *api.Pod) (api.PodCondition, bool) {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodScheduled {
			return c, true
		}
	}
	return api.PodCondition{}, false
}

// waitUnschedulable waits for PodScheduled=False/Unschedulable with msg.
func (e *env) waitUnschedulable(name, msg string) {
	e.t.Helper()
	var last api.PodCondition
	require.Eventually(e.t, func() bool {
		p := e.getPod(name)
		c, ok := podScheduledCondition(p)
		last = c
		return ok && p.Spec.NodeName == "" && c.Status == api.ConditionFalse &&
			c.Reason == api.PodReasonUnschedulable && c.Message == msg
	}, waitFor, tick, "pod %s/%s: want PodScheduled=False %q, last %+v", e.ns, name, msg, last)
}

// waitEvent waits for an event on the named pod with reason and a message
// containing msg.
func (e *env) waitEvent(pod, reason, msg string) {
	e.t.Helper()
	require.Eventually(e.t, func() bool {
		l, err := client.For[*api.Event](e.cl).Namespace(e.ns).List(clustertest.Context(e.t), client.ListOptions{})
		require.NoError(e.t, err)
		for _, ev := range l.Items {
			if ev.InvolvedObject.Name == pod && ev.Reason == reason && strings.Contains(ev.Message, msg) {
				return true
			}
		}
		return false
	}, waitFor, tick, "no %s event %q on pod %s", reason, msg, pod)
}
