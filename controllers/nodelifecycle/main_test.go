package nodelifecycle

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
	"kubeloop/informers"
	"kubeloop/kubelet"
)

const (
	waitFor = 30 * time.Second
	tick    = 20 * time.Millisecond

	gracePeriod     = time.Second
	evictionTimeout = time.Second
)

var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{Components: cluster.Components{Extra: []cluster.Component{
		{Name: ControllerName, Run: runController},
	}}}, func(c *cluster.Cluster) { testCluster = c })
}

// uniqueNodeName gives each test run its own node: the package's cluster
// outlives one run, and under -count=N a rerun would otherwise inherit the
// node (and its taint, or its stopped kubelet) of the run before.
func uniqueNodeName(prefix string) string {
	return prefix + "-" + uuid.NewString()[:8]
}

// runController wires the controller as the controller manager does, with
// test timings.
func runController(ctx context.Context, c *cluster.Cluster) error {
	cl, err := c.NewClient(ControllerName)
	if err != nil {
		return err
	}
	factory := informers.NewClientInformerFactory(cl, 0, nil)
	rec := record.NewRecorder(cl, ControllerName, "")
	nc := NewController(cl, informers.For[*api.Node](factory), informers.For[*api.Lease](factory), informers.For[*api.Pod](factory), rec, Options{
		NodeMonitorPeriod:      100 * time.Millisecond,
		NodeMonitorGracePeriod: gracePeriod,
		PodEvictionTimeout:     evictionTimeout,
	})
	done := make(chan struct{})
	go func() { defer close(done); rec.Run(ctx) }()
	factory.Start(ctx)
	nc.Run(ctx, 2)
	factory.Shutdown()
	<-done
	return nil
}

func kubeletOptions(node string) kubelet.Options {
	return kubelet.Options{
		NodeName:           node,
		HeartbeatInterval:  100 * time.Millisecond,
		NodeStatusInterval: 100 * time.Millisecond,
		PLEGPeriod:         50 * time.Millisecond,
	}
}

func runKubelet(ctx context.Context, c *cluster.Cluster, node string) error {
	cl, err := c.NewClient("kubelet-" + node)
	if err != nil {
		return err
	}
	kl, err := kubelet.New(cl, kubeletOptions(node))
	if err != nil {
		return err
	}
	return kl.Run(ctx)
}

// startKubelet runs a kubelet for node until the test ends.
func startKubelet(t *testing.T, node string) {
	t.Helper()
	clustertest.Go(t, func(ctx context.Context) {
		if err := runKubelet(ctx, testCluster, node); err != nil {
			t.Errorf("kubelet %s: %v", node, err)
		}
	})
}

func getNode(t *testing.T, name string) *api.Node {
	t.Helper()
	n, err := client.For[*api.Node](testCluster.Client).Get(clustertest.Context(t), name, client.GetOptions{})
	require.NoError(t, err)
	return n
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

func createPod(t *testing.T, ns, name, node string, tolerations ...api.Toleration) {
	t.Helper()
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns},
		Spec: api.PodSpec{NodeName: node, Tolerations: tolerations,
			Containers: []api.Container{{Name: "web", Image: "nginx:1.27"}}},
	}
	_, err := client.For[*api.Pod](testCluster.Client).Namespace(ns).Create(clustertest.Context(t), pod, client.CreateOptions{})
	require.NoError(t, err)
}

func condition(n *api.Node, t api.NodeConditionType) *api.NodeCondition {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == t {
			return &n.Status.Conditions[i]
		}
	}
	return nil
}

func podRunning(p *api.Pod) bool { return p != nil && p.Status.Phase == api.PodRunning }

func hasEvent(t *testing.T, ns, object, reason string) bool {
	t.Helper()
	l, err := client.For[*api.Event](testCluster.Client).Namespace(ns).List(clustertest.Context(t), client.ListOptions{})
	require.NoError(t, err)
	for _, e := range l.Items {
		if e.InvolvedObject.Name == object && e.Reason == reason {
			return true
		}
	}
	return false
}
