package chaos

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/store"
)

// Two `kubeloop apiserver` processes share one etcd; a controller manager,
// a scheduler and two kubelets talk to each (the controller managers and
// the schedulers with leader election), and writers write through both.
// A ReplicaSet created through one apiserver ends with exactly its pods
// Running as the other sees it; each apiserver's informer equals the other
// apiserver's LIST; every acknowledged write is there through both; and
// each lease has one holder, who alone acquired it.
func TestTwoAPIServersOnOneEtcdAgree(t *testing.T) {
	replicas := size(30, 100)
	ctx := testCtx(t, 10*time.Minute)
	etcd, err := store.StartEmbedded(store.EmbeddedConfig{DataDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(etcd.Close)
	endpoints := strings.Join(etcd.Endpoints(), ",")

	type side struct {
		dir string
		cli *client.Client
		cm  *process
	}
	var sides [2]*side
	for i := range sides {
		dir := t.TempDir()
		p := startProcess(t, fmt.Sprintf("apiserver-%d", i), "apiserver", "--data-dir", dir, "--listen", "127.0.0.1:0", "--etcd-endpoints", endpoints)
		sides[i] = &side{dir: dir, cli: p.waitReady(dir)}
	}
	for i, s := range sides {
		kubeconfig := filepath.Join(s.dir, "kubeconfig")
		s.cm = startProcess(t, fmt.Sprintf("controller-manager-%d", i), "controller-manager", "--kubeconfig", kubeconfig,
			"--leader-elect", "--metrics-listen", "", "--controllers", "*,-labeler")
		startProcess(t, fmt.Sprintf("scheduler-%d", i), "scheduler", "--kubeconfig", kubeconfig, "--leader-elect")
		for n := range 2 {
			name := fmt.Sprintf("node-%d-%d", i, n)
			startProcess(t, name, "kubelet", "--kubeconfig", kubeconfig, "--node-name", name)
		}
	}
	a, b := sides[0].cli, sides[1].cli

	ns := "chaos-two"
	_, err = client.For[*api.Namespace](a).Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}, client.CreateOptions{})
	require.NoError(t, err)
	// ServiceAccount admission admits the ReplicaSet's pods once the
	// serviceaccount controller has made the namespace's default account.
	require.NoError(t, cluster.WaitForServiceAccount(ctx, a, ns, api.DefaultServiceAccountName))
	cmInfo, _ := api.ForType[*api.ConfigMap](api.Builtin())
	infA := startInformer(t, a, cmInfo, ns)
	infB := startInformer(t, b, cmInfo, ns)

	l := newLedger()
	writeCtx, stopWriters := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for id := range size(4, 16) {
		through := func() *client.Client { return sides[id%2].cli }
		wg.Go(func() { writer(writeCtx, through, l, ns, id, 5) })
	}
	_, err = client.For[*api.ReplicaSet](a).Namespace(ns).Create(ctx, scaledReplicaSet(ns, "web", int32(replicas)), client.CreateOptions{})
	require.NoError(t, err)
	requireExactlyRunning(t, b, ns, "web", replicas)
	require.True(t, waitUntil(time.Minute, func() bool { return l.acknowledged() > 50 }), "writers made no progress")
	stopWriters()
	wg.Wait()

	checkLedger(t, a, l, ns)
	checkLedger(t, b, l, ns)
	requireConverged(t, b, cmInfo, ns, infA)
	requireConverged(t, a, cmInfo, ns, infB)

	// One leader per lease, the same through both apiservers, and only
	// one controller manager ever acquired it.
	for _, lease := range []string{"kube-controller-manager", "kube-scheduler"} {
		var holders []string
		for _, c := range []*client.Client{a, b} {
			l, err := client.For[*api.Lease](c).Namespace("kube-system").Get(ctx, lease, client.GetOptions{})
			require.NoError(t, err)
			require.NotNil(t, l.Spec.HolderIdentity)
			holders = append(holders, *l.Spec.HolderIdentity)
		}
		require.Equal(t, holders[0], holders[1], "%s: the two apiservers disagree on the holder", lease)
	}
	acquired := 0
	for _, s := range sides {
		out, err := os.ReadFile(s.cm.log)
		require.NoError(t, err)
		acquired += strings.Count(string(out), "acquired lease")
	}
	require.Equal(t, 1, acquired, "controller managers that acquired the lease")
}
