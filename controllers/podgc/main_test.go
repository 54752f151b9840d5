package podgc

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
	"kubeloop/informers"
)

// testCluster is an API-only cluster; each test runs its own collector.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{}, func(c *cluster.Cluster) { testCluster = c })
}

const (
	waitFor = 30 * time.Second
	tick    = 20 * time.Millisecond
	// testLabel isolates each test: its collector's informers see only
	// the pods and nodes labelled testLabel=<its namespace>, since the
	// collector counts and judges pods cluster-wide.
	testLabel = "podgc-test"
	period    = 100 * time.Millisecond
)

// env is one test's namespace and collector.
type env struct {
	t  *testing.T
	ns string
}

func newEnv(t *testing.T, opts Options) *env {
	t.Helper()
	ns := clustertest.Namespace(t, testCluster)
	if opts.GCCheckPeriod == 0 {
		opts.GCCheckPeriod = period
	}
	if opts.QuarantineTime == 0 {
		opts.QuarantineTime = 500 * time.Millisecond
	}
	cl, err := testCluster.NewClient("podgc-test")
	require.NoError(t, err)
	factory := informers.NewClientInformerFactory(cl, 0, func(o *api.ListOptions) { o.LabelSelector = testLabel + "=" + ns })
	ctrl := NewController(cl, informers.For[*api.Pod](factory), informers.For[*api.Node](factory), opts)
	t.Cleanup(factory.Shutdown)
	clustertest.Go(t, func(ctx context.Context) {
		factory.Start(ctx)
		ctrl.Run(ctx, 1)
	})
	return &env{t: t, ns: ns}
}

func (e *env) pods() *client.Resource[*api.Pod] {
	return client.For[*api.Pod](testCluster.Client).Namespace(e.ns)
}

// createNode registers a node of this test with the Ready condition given.
func (e *env) createNode(name string, ready api.ConditionStatus, taints ...api.Taint) string {
	e.t.Helper()
	name = e.ns + "-" + name
	nodes := client.For[*api.Node](testCluster.Client)
	n, err := nodes.Create(clustertest.Context(e.t), &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{testLabel: e.ns}},
		Spec: api.NodeSpec{Taints: taints}}, client.CreateOptions{})
	require.NoError(e.t, err)
	n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: ready, LastHeartbeatTime: api.Now()}}
	_, err = nodes.UpdateStatus(clustertest.Context(e.t), n, client.UpdateOptions{})
	require.NoError(e.t, err)
	return name
}

// createPod creates a pod of this test, bound to node ("" = unbound), with
// phase set through the status subresource ("" = as created), as a
// kubelet would report it.
func (e *env) createPod(name, node string, phase api.PodPhase, mutate ...func(*api.Pod)) *api.Pod {
	e.t.Helper()
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{testLabel: e.ns}},
		Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	for _, m := range mutate {
		m(p)
	}
	created, err := e.pods().Create(clustertest.Context(e.t), p, client.CreateOptions{})
	require.NoError(e.t, err)
	if phase != "" {
		created.Status.Phase = phase
		created, err = e.pods().UpdateStatus(clustertest.Context(e.t), created, client.UpdateOptions{})
		require.NoError(e.t, err)
	}
	return created
}

func (e *env) podNames() []string {
	e.t.Helper()
	l, err := e.pods().List(clustertest.Context(e.t), client.ListOptions{})
	require.NoError(e.t, err)
	var out []string
	for _, p := range l.Items {
		out = append(out, p.Name)
	}
	return out
}

func (e *env) waitGone(name string) {
	e.t.Helper()
	require.Eventually(e.t, func() bool {
		_, err := e.pods().Get(clustertest.Context(e.t), name, client.GetOptions{})
		return api.IsNotFound(err)
	}, waitFor, tick, "pod %s/%s is never collected", e.ns, name)
}
