package chaos

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
)

// upCluster is `kubeloop up` on a data dir and a fixed address, so that a
// restart comes back where clients (and informers) expect it.
type upCluster struct {
	t     *testing.T
	dir   string
	addr  string
	nodes int
	proc  *process
	cli   atomic.Pointer[client.Client]
}

func startUp(t *testing.T, nodes int) *upCluster {
	u := &upCluster{t: t, dir: t.TempDir(), addr: freeAddr(t), nodes: nodes}
	u.start()
	return u
}

func (u *upCluster) start() {
	// The kubeconfig of the last run must not be mistaken for this one's.
	_ = os.Remove(filepath.Join(u.dir, "kubeconfig"))
	// The labeler writes ConfigMaps too; without it the writers are the
	// only ones, and an unchanged object must keep its resourceVersion.
	u.proc = startProcess(u.t, "kubeloop-up", "up", "--data-dir", u.dir, "--listen", u.addr, "--nodes", fmt.Sprint(u.nodes), "--controllers", "*,-labeler")
	u.cli.Store(u.proc.waitReady(u.dir))
}

func (u *upCluster) client() *client.Client { return u.cli.Load() }

// kill9AndRestart kills the whole cluster with SIGKILL and starts it again
// on the same data dir and address.
func (u *upCluster) kill9AndRestart() {
	u.proc.kill()
	u.start()
}

// A ReplicaSet scales 0 → N and writers create and update ConfigMaps while
// `kubeloop up` is killed with SIGKILL (once, or three times in the long
// form) and restarted on the same data dir: afterwards exactly N pods run,
// every acknowledged write is there, the informer that lived through the
// kills equals a fresh LIST, and no resourceVersion went back.
func TestKill9DuringScalingAndWritesLosesNothing(t *testing.T) {
	replicas := size(60, 200)
	writers := size(4, 16)
	kills := size(1, 3)
	u := startUp(t, 3)
	ctx := testCtx(t, 10*time.Minute)

	ns := "chaos-kill"
	_, err := client.For[*api.Namespace](u.client()).Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}, client.CreateOptions{})
	require.NoError(t, err)
	// ServiceAccount admission admits the ReplicaSet's pods once the
	// serviceaccount controller has made the namespace's default account.
	require.NoError(t, cluster.WaitForServiceAccount(ctx, u.client(), ns, api.DefaultServiceAccountName))
	cmInfo, _ := api.ForType[*api.ConfigMap](api.Builtin())
	inf := startInformer(t, u.client(), cmInfo, ns)

	l := newLedger()
	writeCtx, stopWriters := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for id := range writers {
		wg.Go(func() { writer(writeCtx, u.client, l, ns, id, 5) })
	}

	rs := scaledReplicaSet(ns, "web", 0)
	rsClient := client.For[*api.ReplicaSet](u.client()).Namespace(ns)
	_, err = rsClient.Create(ctx, rs, client.CreateOptions{})
	require.NoError(t, err)
	setReplicas(t, u.client(), ns, "web", int32(replicas))

	for k := range kills {
		// Kill while the scale-up is under way: once some pods, not all,
		// exist (in later rounds, at once: the restarted cluster is still
		// catching up), and once the writers have had acknowledgements.
		require.True(t, waitUntil(2*time.Minute, func() bool {
			return l.acknowledged() > 10*(k+1) && (k > 0 || countPods(u.client(), ns) >= replicas/4)
		}), "no progress before kill %d", k+1)
		before, pods := l.highestRV(), countPods(u.client(), ns)
		u.kill9AndRestart()
		t.Logf("kill %d: with %d of %d pods created, %d writes acknowledged, highest resourceVersion %d", k+1, pods, replicas, l.acknowledged(), before)
	}
	// Let the writers run against the restarted cluster, then stop them.
	acked := l.acknowledged()
	require.True(t, waitUntil(time.Minute, func() bool { return l.acknowledged() > acked+20 }), "writers made no progress after the restart")
	stopWriters()
	wg.Wait()

	requireExactlyRunning(t, u.client(), ns, "web", replicas)
	checkLedger(t, u.client(), l, ns)
	requireConverged(t, u.client(), cmInfo, ns, inf)
}

func scaledReplicaSet(ns, name string, replicas int32) *api.ReplicaSet {
	labels := map[string]string{"app": name}
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.27"}}},
			},
		},
	}
}

// setReplicas writes spec.replicas through the scale subresource, as
// kubectl scale does.
func setReplicas(t *testing.T, c *client.Client, ns, name string, replicas int32) {
	t.Helper()
	rsClient := client.For[*api.ReplicaSet](c).Namespace(ns)
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		scale, err := rsClient.GetScale(testCtx(t, 30*time.Second), name)
		if err != nil {
			return err
		}
		scale.Spec.Replicas = replicas
		_, err = rsClient.UpdateScale(testCtx(t, 30*time.Second), name, scale, client.UpdateOptions{})
		return err
	}))
}

func countPods(c *client.Client, ns string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	l, err := client.For[*api.Pod](c).Namespace(ns).List(ctx, client.ListOptions{})
	if err != nil {
		return -1
	}
	return len(l.Items)
}

// requireExactlyRunning waits for the ReplicaSet's pods to be exactly want,
// all Running and none terminating, and for its status to say so; then
// checks the count holds (no late duplicate from a controller that did not
// know what it had created before the kill).
func requireExactlyRunning(t *testing.T, c *client.Client, ns, name string, want int) {
	t.Helper()
	pods := client.For[*api.Pod](c).Namespace(ns)
	var last string
	settled := func() bool {
		l, err := pods.List(testCtx(t, 30*time.Second), client.ListOptions{LabelSelector: "app=" + name})
		if err != nil {
			last = err.Error()
			return false
		}
		running, other := 0, 0
		for _, p := range l.Items {
			if p.DeletionTimestamp == nil && p.Status.Phase == api.PodRunning {
				running++
			} else {
				other++
			}
		}
		last = fmt.Sprintf("%d Running, %d other", running, other)
		if running != want || other != 0 {
			return false
		}
		rs, err := client.For[*api.ReplicaSet](c).Namespace(ns).Get(testCtx(t, 30*time.Second), name, client.GetOptions{})
		return err == nil && rs.Status.Replicas == int32(want) && rs.Status.ObservedGeneration == rs.Generation
	}
	require.True(t, waitUntil(3*time.Minute, settled), "pods of %s never settled at %d: %s", name, want, last)
	// Settled once; a second look after the controller has had every
	// event must give the same answer.
	require.True(t, waitUntil(10*time.Second, settled), "pods of %s moved after settling: %s", name, last)
	require.Equal(t, fmt.Sprintf("%d Running, 0 other", want), last)
}
