package full

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/kubelet"
)

const (
	waitFor = 30 * time.Second
	tick    = 25 * time.Millisecond
)

func TestMain(m *testing.M) {
	level := slog.LevelWarn
	if os.Getenv("KUBELOOP_TEST_LOGS") != "" {
		level = slog.LevelDebug
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))
	os.Exit(m.Run())
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// fastKubelet is the kubelet template of the tests: heartbeats, relists and
// back-offs in milliseconds instead of seconds.
func fastKubelet() kubelet.Options {
	return kubelet.Options{
		HeartbeatInterval:  200 * time.Millisecond,
		NodeStatusInterval: 200 * time.Millisecond,
		PLEGPeriod:         50 * time.Millisecond,
		RestartBackoffBase: 100 * time.Millisecond,
		RestartBackoffMax:  400 * time.Millisecond,
	}
}

// startCluster starts a whole cluster for one test and waits until every
// one of its opts.Nodes nodes is Ready. Each scenario gets its own cluster
// because several of them count or kill nodes.
func startCluster(t *testing.T, opts Options) *cluster.Cluster {
	t.Helper()
	// Components read it when their informers are built, so it must be
	// set before Start; the benchmark leaves it off.
	t.Setenv("KUBELOOP_CACHE_MUTATION_DETECTOR", "true")
	c, err := Start(testCtx(t), cluster.Options{}, opts)
	require.NoError(t, err)
	t.Cleanup(c.Stop)
	var names []string
	for i := 0; i < opts.Nodes; i++ {
		names = append(names, NodeName(i))
	}
	waitNodesReady(t, c, names...)
	return c
}

func waitNodesReady(t testing.TB, c *cluster.Cluster, names ...string) {
	t.Helper()
	require.Eventually(t, func() bool {
		for _, n := range names {
			node, err := client.For[*api.Node](c.Client).Get(testCtx(t), n, client.GetOptions{})
			if err != nil || nodeCondition(node, api.NodeReady) != api.ConditionTrue {
				return false
			}
		}
		return true
	}, waitFor, tick, "nodes %v never became Ready", names)
}

func nodeCondition(n *api.Node, typ api.NodeConditionType) api.ConditionStatus {
	for _, c := range n.Status.Conditions {
		if c.Type == typ {
			return c.Status
		}
	}
	return ""
}

func podCondition(p *api.Pod, typ api.PodConditionType) *api.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == typ {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

func podReady(p *api.Pod) bool {
	c := podCondition(p, api.PodReady)
	return p.Status.Phase == api.PodRunning && c != nil && c.Status == api.ConditionTrue
}

func newNamespace(t testing.TB, c *cluster.Cluster) string {
	t.Helper()
	name := strings.ToLower(strings.NewReplacer("/", "-", "_", "-", "=", "-").Replace(t.Name()))
	if len(name) > 40 {
		name = name[:40]
	}
	// The suffix keeps -count=N runs apart.
	name = fmt.Sprintf("%s-%d", name, time.Now().UnixNano()%1000000)
	_, err := client.For[*api.Namespace](c.Client).Create(testCtx(t), &api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}, client.CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, c.WaitForDefaultServiceAccount(testCtx(t), name))
	return name
}

// replicaSet is a ReplicaSet of app=name whose pods request cpu and memory.
func replicaSet(ns, name string, replicas int32, cpu, memory string) *api.ReplicaSet {
	labels := map[string]string{"app": name}
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{
					Name: "web", Image: "nginx:1.27",
					Resources: api.ResourceRequirements{Requests: api.ResourceList{
						api.ResourceCPU:    api.MustParseQuantity(cpu),
						api.ResourceMemory: api.MustParseQuantity(memory),
					}},
				}}},
			},
		},
	}
}

func createReplicaSet(t testing.TB, c *cluster.Cluster, rs *api.ReplicaSet) *api.ReplicaSet {
	t.Helper()
	out, err := client.For[*api.ReplicaSet](c.Client).Namespace(rs.Namespace).Create(testCtx(t), rs, client.CreateOptions{})
	require.NoError(t, err)
	return out
}

func listPods(t testing.TB, c *cluster.Cluster, ns, selector string) []*api.Pod {
	t.Helper()
	l, err := client.For[*api.Pod](c.Client).Namespace(ns).List(testCtx(t), client.ListOptions{LabelSelector: selector})
	require.NoError(t, err)
	return l.Items
}

func getReplicaSet(t testing.TB, c *cluster.Cluster, ns, name string) *api.ReplicaSet {
	t.Helper()
	rs, err := client.For[*api.ReplicaSet](c.Client).Namespace(ns).Get(testCtx(t), name, client.GetOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	require.NoError(t, err)
	return rs
}

// readyPodsByNode counts the Running and Ready pods that are not being
// deleted, by node.
func readyPodsByNode(pods []*api.Pod) map[string]int {
	out := map[string]int{}
	for _, p := range pods {
		if p.DeletionTimestamp == nil && podReady(p) {
			out[p.Spec.NodeName]++
		}
	}
	return out
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// eventsByReason lists the namespace's events: reason → involved object
// names.
func eventsByReason(t testing.TB, c *cluster.Cluster, ns string) map[string][]string {
	t.Helper()
	l, err := client.For[*api.Event](c.Client).Namespace(ns).List(testCtx(t), client.ListOptions{})
	require.NoError(t, err)
	out := map[string][]string{}
	for _, e := range l.Items {
		out[e.Reason] = append(out[e.Reason], e.InvolvedObject.Kind+"/"+e.InvolvedObject.Name)
	}
	return out
}
