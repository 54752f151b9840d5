//go:build exercise || solution

package schedplugin

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/cluster"
	"kubeloop/informers"
	"kubeloop/scheduler"
)

// testCluster is an API-only cluster (no scheduler, no kubelets): the test
// starts the scheduler it configures and registers its nodes by hand.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	os.Setenv("KUBELOOP_CACHE_MUTATION_DETECTOR", "true")
	level := slog.LevelWarn
	if os.Getenv("KUBELOOP_TEST_LOGS") != "" {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(logger)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	c, err := cluster.Start(ctx, cluster.Options{Logger: logger})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "start cluster:", err)
		os.Exit(1)
	}
	testCluster = c
	code := m.Run()
	c.Stop()
	os.Exit(code)
}

const (
	waitTimeout  = 30 * time.Second
	pollInterval = 20 * time.Millisecond
)

// createNode registers a Ready node as a kubelet would: the object, then
// its status.
func createNode(t *testing.T, cl *client.Client, name string, labels map[string]string) {
	t.Helper()
	ctx := context.Background()
	want := readyNode(name, labels)
	nodes := client.For[*api.Node](cl)
	created, err := nodes.Create(ctx, &api.Node{ObjectMeta: want.ObjectMeta}, client.CreateOptions{})
	require.NoError(t, err)
	created.Status = want.Status
	_, err = nodes.UpdateStatus(ctx, created, client.UpdateOptions{})
	require.NoError(t, err)
}

// startScheduler runs a scheduler with the default plugins and ours. Its
// informers see only the objects labelled run=<run>, so nodes left by an
// earlier run (go test -count=2) do not take part.
func startScheduler(t *testing.T, cl *client.Client, run string) {
	t.Helper()
	factory := informers.NewClientInformerFactory(cl, 0, func(o *api.ListOptions) { o.LabelSelector = "run=" + run })
	rec := record.NewRecorder(cl, scheduler.ComponentName, "")
	s, err := scheduler.New(cl, factory, rec, scheduler.Options{
		Plugins:           withPlugin(),
		PodInitialBackoff: 50 * time.Millisecond,
		PodMaxBackoff:     200 * time.Millisecond,
	})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); rec.Run(ctx) }()
	factory.Start(ctx)
	go func() { defer wg.Done(); s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		factory.Shutdown()
	})
}

// placement is where a pod ended up: a node, or the reason it has none.
type placement struct {
	node          string
	unschedulable string // the PodScheduled=False message
	// schedulerError is the message of PodScheduled=False with reason
	// SchedulerError: a plugin failed (the stub does), and waiting longer
	// would not change that.
	schedulerError string
}

// waitPlaced waits until the pod is bound, or declared unschedulable by a
// scheduler that knew all three nodes. An earlier verdict ("no nodes
// available") can come from a first attempt made before the scheduler's
// cache received the nodes; the nodes' arrival retries the pod.
func waitPlaced(t *testing.T, cl *client.Client, ns, name string) placement {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		p, err := client.For[*api.Pod](cl).Namespace(ns).Get(context.Background(), name, client.GetOptions{})
		require.NoError(t, err)
		if p.Spec.NodeName != "" {
			return placement{node: p.Spec.NodeName}
		}
		for _, c := range p.Status.Conditions {
			if c.Type == api.PodScheduled && c.Status == api.ConditionFalse && c.Reason == api.PodReasonUnschedulable &&
				strings.HasPrefix(c.Message, "0/3 nodes") {
				return placement{unschedulable: c.Message}
			}
			if c.Type == api.PodScheduled && c.Status == api.ConditionFalse && c.Reason == scheduler.PodReasonSchedulerError {
				return placement{schedulerError: c.Message}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("pod %s/%s was neither bound nor declared unschedulable within %v", ns, name, waitTimeout)
		}
		time.Sleep(pollInterval)
	}
}

// A real scheduler with the plugin registered after the defaults, on three
// equal nodes that differ only in their labels.
func TestSchedulerPlacesPodsByNodeLabels(t *testing.T) {
	run := fmt.Sprintf("%04x", uuid.New().ID()&0xffff)
	cl, err := testCluster.NewClient("exercise-scheduler")
	require.NoError(t, err)
	ctx := context.Background()
	ns := "placement-" + run
	_, err = client.For[*api.Namespace](cl).Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}, client.CreateOptions{})
	require.NoError(t, err)

	node := func(n string) string { return n + "-" + run }
	labels := func(extra map[string]string) map[string]string {
		l := map[string]string{"run": run}
		for k, v := range extra {
			l[k] = v
		}
		return l
	}
	createNode(t, cl, node("ssd"), labels(map[string]string{DiskLabel: PreferredDisk, "kubernetes.io/hostname": node("ssd")}))
	createNode(t, cl, node("hdd"), labels(map[string]string{DiskLabel: "hdd", "kubernetes.io/hostname": node("hdd")}))
	// An SSD node too: only the filter keeps pods away from it.
	createNode(t, cl, node("maint"), labels(map[string]string{DiskLabel: PreferredDisk, MaintenanceLabel: "true", "kubernetes.io/hostname": node("maint")}))
	startScheduler(t, cl, run)

	createPod := func(name string, nodeSelector map[string]string) {
		t.Helper()
		_, err := client.For[*api.Pod](cl).Namespace(ns).Create(ctx, &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"run": run}},
			Spec: api.PodSpec{
				NodeSelector: nodeSelector,
				Containers: []api.Container{{Name: "app", Image: "nginx", Resources: api.ResourceRequirements{
					Requests: api.ResourceList{api.ResourceCPU: "100m", api.ResourceMemory: "64Mi"}}}},
			},
		}, client.CreateOptions{})
		require.NoError(t, err)
	}

	// Small pods: each one lowers its node's spreading scores by a point or
	// two, far less than the 100 the SSD preference is worth.
	for i := range 6 {
		createPod(fmt.Sprintf("web-%d", i), nil)
	}
	for i := range 6 {
		got := waitPlaced(t, cl, ns, fmt.Sprintf("web-%d", i))
		assert.Equal(t, placement{node: node("ssd")}, got,
			"web-%d: the only SSD node not under maintenance scores highest", i)
	}

	// The preference is a score, not a filter: a pod that asks for the
	// HDD node gets it.
	createPod("wants-hdd", map[string]string{DiskLabel: "hdd"})
	assert.Equal(t, placement{node: node("hdd")}, waitPlaced(t, cl, ns, "wants-hdd"))

	// A pod that can only run on the maintenance node does not run at all,
	// and the pod says why.
	createPod("wants-maint", map[string]string{"kubernetes.io/hostname": node("maint")})
	assert.Equal(t, placement{unschedulable: "0/3 nodes are available: 1 " + ErrReasonMaintenance +
		", 2 node(s) didn't match Pod's node affinity/selector."}, waitPlaced(t, cl, ns, "wants-maint"))
}
