package controllers_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/full"
	"kubeloop/controllers"
)

func TestEnabledResolvesTheControllersFlag(t *testing.T) {
	nothing := func(controllers.Context) (controllers.Runner, error) { return nil, nil }
	known := map[string]controllers.InitFunc{"a": nothing, "b": nothing, "c": nothing}
	cases := []struct {
		name      string
		selection []string
		want      []string
		err       string
	}{
		{"star is every controller", []string{"*"}, []string{"a", "b", "c"}, ""},
		{"minus removes one", []string{"*", "-b"}, []string{"a", "c"}, ""},
		{"order does not matter", []string{"-b", "*"}, []string{"a", "c"}, ""},
		{"a name alone runs only it", []string{"a"}, []string{"a"}, ""},
		{"names add to nothing", []string{"a", "c"}, []string{"a", "c"}, ""},
		{"the first mention wins", []string{"a", "-a"}, []string{"a"}, ""},
		{"spaces and empty entries are ignored", []string{" a ", ""}, []string{"a"}, ""},
		{"empty is nothing", nil, nil, ""},
		{"unknown removal is an error", []string{"*", "-x"}, nil, `unknown controller "x"`},
		{"unknown name is an error", []string{"x"}, nil, `unknown controller "x"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := controllers.Enabled(tc.selection, known)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestStarRunsEveryKnownControllerTheLabelerIncluded(t *testing.T) {
	known := controllers.KnownControllers()
	got, err := controllers.Enabled([]string{"*"}, known)
	require.NoError(t, err)
	require.Len(t, got, len(known), "every known controller runs by default")
	require.Contains(t, got, "labeler", "the tutorial's labeler is on by default")
	got, err = controllers.Enabled([]string{"*", "-labeler"}, known)
	require.NoError(t, err)
	require.NotContains(t, got, "labeler", "*,-labeler turns it off")
	require.Len(t, got, len(known)-1)
}

func TestResyncPeriodIsBetweenOnceAndTwiceTheMinimum(t *testing.T) {
	const minimum = 30 * time.Second
	lowest, highest := 2*minimum, time.Duration(0)
	for range 1000 {
		d := controllers.ResyncPeriod(minimum)
		require.GreaterOrEqual(t, d, minimum)
		require.Less(t, d, 2*minimum)
		lowest, highest = min(lowest, d), max(highest, d)
	}
	// 1000 uniform draws spread over most of the range.
	require.Less(t, lowest, minimum+minimum/10)
	require.Greater(t, highest, 2*minimum-minimum/10)
	require.Zero(t, controllers.ResyncPeriod(0), "zero means no resyncs")
}

func TestNewManagerRejectsANegativeMinResyncPeriod(t *testing.T) {
	_, err := controllers.NewManager(controllers.ManagerOptions{Config: testCluster.Config,
		ComponentConfig: &controllers.ComponentConfig{MinResyncPeriod: -time.Second}})
	require.ErrorContains(t, err, "--min-resync-period")
}

// serveMetrics serves m's /metrics on a free port until the test ends and
// returns a function that reads one counter of it.
func serveMetrics(t *testing.T, m *controllers.Manager) func(metric string) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	serveCtx, cancelServe := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { defer close(served); m.Serve(serveCtx, ln) }()
	t.Cleanup(func() { cancelServe(); <-served })
	return func(metric string) int {
		code, body := httpGet(t, "http://"+ln.Addr().String()+"/metrics")
		require.Equal(t, http.StatusOK, code)
		match := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(metric) + ` (\d+)$`).FindStringSubmatch(body)
		if match == nil {
			return 0
		}
		n, err := strconv.Atoi(match[1])
		require.NoError(t, err)
		return n
	}
}

func TestMinResyncPeriodRedeliversEveryObjectToTheHandlers(t *testing.T) {
	ns := newNamespace(t, testCluster.Client, "resync")
	cms := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns)
	_, err := cms.Create(context.Background(), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "hello"}}, client.CreateOptions{})
	require.NoError(t, err)
	m, err := controllers.NewManager(controllers.ManagerOptions{
		Config: testCluster.Config, Controllers: []string{"labeler"},
		ComponentConfig: &controllers.ComponentConfig{MinResyncPeriod: time.Second, LabelerNamespaces: []string{ns}},
	})
	require.NoError(t, err)
	counter := serveMetrics(t, m)
	runManager(t, m)
	require.Eventually(t, func() bool {
		cm, err := cms.Get(context.Background(), "hello", client.GetOptions{})
		return err == nil && cm.Labels["managed-by"] == "configmap-controller"
	}, deadline, tick)
	labelled, err := cms.Get(context.Background(), "hello", client.GetOptions{})
	require.NoError(t, err)

	// Nothing changes any more, yet the labeler's queue keeps getting the
	// key: each resync (every 1–2 s) hands every cached object to the
	// handlers again. The first pass and our write's echo are two adds.
	adds := `workqueue_adds_total{name="labeler"}`
	require.Eventually(t, func() bool { return counter(adds) >= 5 }, deadline, 50*time.Millisecond,
		"resyncs redeliver the ConfigMap")
	after, err := cms.Get(context.Background(), "hello", client.GetOptions{})
	require.NoError(t, err)
	require.Equal(t, labelled.ResourceVersion, after.ResourceVersion, "a resync of a labelled ConfigMap writes nothing")
}

func TestWithoutResyncTheHandlersSeeOnlyChanges(t *testing.T) {
	ns := newNamespace(t, testCluster.Client, "noresync")
	cms := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns)
	_, err := cms.Create(context.Background(), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "hello"}}, client.CreateOptions{})
	require.NoError(t, err)
	m, err := controllers.NewManager(controllers.ManagerOptions{
		Config: testCluster.Config, Controllers: []string{"labeler"},
		ComponentConfig: &controllers.ComponentConfig{LabelerNamespaces: []string{ns}},
	})
	require.NoError(t, err)
	counter := serveMetrics(t, m)
	runManager(t, m)
	adds := `workqueue_adds_total{name="labeler"}`
	require.Eventually(t, func() bool { return counter(adds) == 2 }, deadline, tick, "the first pass and the echo of our write")
	// A second object created later is delivered after the first one's
	// events; once it has been handled, the count says nothing else came.
	_, err = cms.Create(context.Background(), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "later"}}, client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		cm, err := cms.Get(context.Background(), "later", client.GetOptions{})
		return err == nil && cm.Labels["managed-by"] == "configmap-controller"
	}, deadline, tick)
	require.Eventually(t, func() bool { return counter(adds) >= 4 }, deadline, tick)
	require.Equal(t, 4, counter(adds), "no resync adds")
}

func TestLabelerNamespacesLimitTheLabelerRunByTheManager(t *testing.T) {
	managed := newNamespace(t, testCluster.Client, "managed")
	other := newNamespace(t, testCluster.Client, "other")
	m, err := controllers.NewManager(controllers.ManagerOptions{
		Config: testCluster.Config, Controllers: []string{"labeler"},
		ComponentConfig: &controllers.ComponentConfig{LabelerNamespaces: []string{managed}},
	})
	require.NoError(t, err)
	runManager(t, m)
	create := func(ns string) {
		_, err := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns).Create(context.Background(),
			&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "hello"}}, client.CreateOptions{})
		require.NoError(t, err)
	}
	get := func(ns string) *api.ConfigMap {
		cm, err := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns).Get(context.Background(), "hello", client.GetOptions{})
		require.NoError(t, err)
		return cm
	}
	// The informer delivers in resourceVersion order: once the later
	// ConfigMap is labelled, the earlier one was seen and left alone.
	create(other)
	create(managed)
	require.Eventually(t, func() bool { return get(managed).Labels["managed-by"] == "configmap-controller" }, deadline, tick)
	require.NotContains(t, get(other).Labels, "managed-by")
}

func TestNewManagerRejectsUnknownControllersAndMissingConfig(t *testing.T) {
	_, err := controllers.NewManager(controllers.ManagerOptions{Config: testCluster.Config, Controllers: []string{"*", "-nope"}})
	require.ErrorContains(t, err, `unknown controller "nope"`)
	_, err = controllers.NewManager(controllers.ManagerOptions{})
	require.ErrorContains(t, err, "config")
}

// runManager runs m until the returned stop is called; stop waits for Run to
// return and hands back its error.
func runManager(t *testing.T, m *controllers.Manager) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- m.Run(ctx) }()
	var result error
	var stopped atomic.Bool
	stop = func() error {
		if stopped.Swap(true) {
			return result
		}
		cancel()
		select {
		case result = <-errc:
		case <-time.After(deadline):
			t.Fatal("manager did not stop")
		}
		return result
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

func createReplicaSet(t *testing.T, ns, name string, replicas int32) {
	t.Helper()
	_, err := client.For[*api.ReplicaSet](testCluster.Client).Namespace(ns).Create(context.Background(),
		newReplicaSet(name, replicas), client.CreateOptions{})
	require.NoError(t, err)
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

func TestManagerServesWorkqueueMetricsAndHealthz(t *testing.T) {
	m, err := controllers.NewManager(controllers.ManagerOptions{Config: testCluster.Config, Controllers: []string{"replicaset"}})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	serveCtx, cancelServe := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { defer close(served); m.Serve(serveCtx, ln) }()
	t.Cleanup(func() { cancelServe(); <-served })
	stop := runManager(t, m)
	base := "http://" + ln.Addr().String()

	code, body := httpGet(t, base+"/healthz")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, "ok", body)

	ns := newNamespace(t, testCluster.Client, "metrics")
	createReplicaSet(t, ns, "web", 2)
	require.Eventually(t, func() bool { return countPods(t, testCluster.Client, ns) == 2 }, deadline, tick)
	require.True(t, m.IsLeading(), "without leader election the manager always runs its controllers")

	adds := regexp.MustCompile(`(?m)^workqueue_adds_total\{name="replicaset"\} (\d+)$`)
	code, body = httpGet(t, base+"/metrics")
	require.Equal(t, http.StatusOK, code)
	match := adds.FindStringSubmatch(body)
	require.NotNil(t, match, "no replicaset adds in:\n%s", body)
	n, err := strconv.Atoi(match[1])
	require.NoError(t, err)
	require.Positive(t, n)
	require.Contains(t, body, `workqueue_depth{name="replicaset"}`)

	require.NoError(t, stop())
	require.False(t, m.IsLeading(), "a stopped manager runs nothing")
}

// electingManager is a manager with leader election on a test lease and a
// table that counts how often its controllers were started.
type electingManager struct {
	*controllers.Manager
	id     string
	starts atomic.Int32
	stop   func() error
}

func startElectingManager(t *testing.T, lease, id string) *electingManager {
	t.Helper()
	em := &electingManager{id: id}
	rs := controllers.KnownControllers()["replicaset"]
	m, err := controllers.NewManager(controllers.ManagerOptions{
		Config: testCluster.Config, LeaderElect: true,
		LeaseName: lease, Identity: id,
		LeaseDuration: 2 * time.Second, RenewDeadline: 1500 * time.Millisecond, RetryPeriod: 200 * time.Millisecond,
		Known: map[string]controllers.InitFunc{"replicaset": func(cc controllers.Context) (controllers.Runner, error) {
			em.starts.Add(1)
			return rs(cc)
		}},
	})
	require.NoError(t, err)
	em.Manager = m
	em.stop = runManager(t, m)
	return em
}

func getLease(t *testing.T, name string) *api.Lease {
	t.Helper()
	l, err := client.For[*api.Lease](testCluster.Client).Namespace("kube-system").Get(context.Background(), name, client.GetOptions{})
	require.NoError(t, err)
	return l
}

func TestOnlyTheLeaderRunsControllersAndTheOtherTakesOverWhenItStops(t *testing.T) {
	lease := "kcm-" + uuid.NewString()[:8]
	a := startElectingManager(t, lease, "a")
	b := startElectingManager(t, lease, "b")
	require.Eventually(t, func() bool { return a.IsLeading() || b.IsLeading() }, deadline, tick)
	leader, follower := a, b
	if b.IsLeading() {
		leader, follower = b, a
	}

	// Give the follower more than two lease durations in which it could
	// wrongly start: the leader keeps renewing all along.
	require.Eventually(t, func() bool {
		l := getLease(t, lease)
		return l.Spec.AcquireTime != nil && l.Spec.RenewTime != nil &&
			l.Spec.RenewTime.Sub(l.Spec.AcquireTime.Time) > 4*time.Second
	}, deadline, tick)
	require.Equal(t, int32(1), leader.starts.Load())
	require.Zero(t, follower.starts.Load(), "the follower starts no controller")
	require.False(t, follower.IsLeading())
	require.Equal(t, leader.id, *getLease(t, lease).Spec.HolderIdentity)

	ns := newNamespace(t, testCluster.Client, "leader")
	createReplicaSet(t, ns, "before", 3)
	require.Eventually(t, func() bool { return countPods(t, testCluster.Client, ns) == 3 }, deadline, tick)

	require.NoError(t, leader.stop())
	require.False(t, leader.IsLeading())
	require.Eventually(t, follower.IsLeading, 20*time.Second, tick, "the follower takes over within 20 s")
	require.Equal(t, follower.id, *getLease(t, lease).Spec.HolderIdentity)

	createReplicaSet(t, ns, "after", 2)
	require.Eventually(t, func() bool { return countPods(t, testCluster.Client, ns) == 5 }, deadline, tick,
		"the new leader reconciles a new ReplicaSet")
}

func TestControllersThatCannotStartEndTheElectionAndReleaseTheLease(t *testing.T) {
	lease := "kcm-" + uuid.NewString()[:8]
	m, err := controllers.NewManager(controllers.ManagerOptions{
		Config: testCluster.Config, LeaderElect: true, LeaseName: lease, Identity: "broken",
		LeaseDuration: 2 * time.Second, RenewDeadline: 1500 * time.Millisecond, RetryPeriod: 200 * time.Millisecond,
		Known: map[string]controllers.InitFunc{"broken": func(controllers.Context) (controllers.Runner, error) {
			return nil, io.ErrUnexpectedEOF
		}},
	})
	require.NoError(t, err)
	errc := make(chan error, 1)
	go func() { errc <- m.Run(context.Background()) }()
	select {
	case err := <-errc:
		require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	case <-time.After(deadline):
		t.Fatal("Run kept the lease while running nothing")
	}
	require.Empty(t, *getLease(t, lease).Spec.HolderIdentity, "the lease is released for another manager")
}

func TestKilledControllerManagerMidScaleConvergesWithoutDuplicates(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Every default controller, as a real controller manager runs them.
	var selection []string
	c, err := full.Start(ctx, cluster.Options{}, full.Options{Controllers: selection})
	require.NoError(t, err)
	defer c.Stop()

	const replicas = 200
	ns := newNamespace(t, c.Client, "midscale")
	require.NoError(t, c.WaitForDefaultServiceAccount(ctx, ns))
	pw := watchPods(t, c.Client, ns)
	rsc := client.For[*api.ReplicaSet](c.Client).Namespace(ns)
	_, err = rsc.Create(ctx, newReplicaSet("web", 0), client.CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		scale, err := rsc.GetScale(ctx, "web")
		if err != nil {
			return err
		}
		scale.Spec.Replicas = replicas
		_, err = rsc.UpdateScale(ctx, "web", scale, client.UpdateOptions{})
		return err
	}))

	require.Eventually(t, func() bool { live, _ := pw.counts(); return live >= 50 }, deadline, 2*time.Millisecond)
	require.NoError(t, c.StopComponent(full.ControllerManagerName))
	atStop, _ := pw.counts()
	require.Less(t, atStop, replicas, "the manager was stopped mid-scale")

	// A killed manager's creates may still be in the apiserver when it is
	// gone: its client gave up, but the handler goes on and commits. A real
	// successor starts only after the lease expires, long after those have
	// finished. Here the test waits for the same: a moment with no mutating
	// request in flight means every create the old manager sent is done.
	// Then a sentinel write, ordered after all of them, and a LIST not
	// older than it wait until the watch cache the successor lists from
	// holds them.
	require.Eventually(t, func() bool { return mutatingInflight(t, c.Client) == 0 }, deadline, 2*time.Millisecond,
		"the stopped manager's requests never drained")
	sentinel, err := client.For[*api.ConfigMap](c.Client).Namespace(ns).Create(ctx,
		&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "sentinel"}}, client.CreateOptions{})
	require.NoError(t, err)
	_, err = client.For[*api.Pod](c.Client).Namespace(ns).List(ctx, client.ListOptions{
		ResourceVersion: sentinel.ResourceVersion, ResourceVersionMatch: "NotOlderThan",
	})
	require.NoError(t, err)

	cm, err := full.ControllerManager(selection)
	require.NoError(t, err)
	c.StartComponent(cm)

	var status int32
	var live int
	converged := assert.Eventually(t, func() bool {
		rs, err := rsc.Get(ctx, "web", client.GetOptions{})
		if err != nil {
			return false
		}
		status = rs.Status.Replicas
		live, _ = pw.counts()
		return status == replicas && live == replicas
	}, 90*time.Second, 50*time.Millisecond)
	if !converged {
		t.Fatalf("no convergence: status.replicas %d, pods watched %d, pods listed %d, stopped at %d", status, live, countPods(t, c.Client, ns), atStop)
	}
	require.Equal(t, replicas, countPods(t, c.Client, ns))
	_, most := pw.counts()
	require.Equal(t, replicas, most, "never more than %d pods at once", replicas)
}

// mutatingInflight is the apiserver's count of mutating requests being
// served now (apiserver_current_inflight_requests).
func mutatingInflight(t *testing.T, c *client.Client) float64 {
	t.Helper()
	body, err := c.DoRaw(context.Background(), "GET", "/metrics", nil, nil)
	require.NoError(t, err)
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, `apiserver_current_inflight_requests{request_kind="mutating"} `); ok {
			f, err := strconv.ParseFloat(v, 64)
			require.NoError(t, err)
			return f
		}
	}
	return 0
}

func TestManagerThatLosesItsLeaseStopsControllersAndCompetesAgain(t *testing.T) {
	lease := "kcm-" + uuid.NewString()[:8]
	m := startElectingManager(t, lease, "m")
	require.Eventually(t, m.IsLeading, deadline, tick)

	// Another holder takes the lease with a fresh renewal: m must stop its
	// controllers within its renew deadline, then take the lease back once
	// the intruder stops renewing.
	leases := client.For[*api.Lease](testCluster.Client).Namespace("kube-system")
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		l := getLease(t, lease)
		intruder := "intruder"
		now := api.NowMicro()
		l.Spec.HolderIdentity, l.Spec.RenewTime = &intruder, &now
		_, err := leases.Update(context.Background(), l, client.UpdateOptions{})
		return err
	}))
	require.Eventually(t, func() bool { return !m.IsLeading() }, deadline, tick, "controllers stop when the lease is lost")
	require.Eventually(t, func() bool { return m.starts.Load() == 2 && m.IsLeading() }, deadline, tick,
		"the manager competes again and restarts its controllers")
	require.Equal(t, "m", *getLease(t, lease).Spec.HolderIdentity)

	ns := newNamespace(t, testCluster.Client, "regained")
	createReplicaSet(t, ns, "web", 2)
	require.Eventually(t, func() bool { return countPods(t, testCluster.Client, ns) == 2 }, deadline, tick)
}
