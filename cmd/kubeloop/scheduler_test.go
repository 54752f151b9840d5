package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

func leading(p *process) bool { return strings.Contains(p.log(), `msg="started leading"`) }

func TestSchedulerStandbyTakesOverWhenTheLeaderIsKilled(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "d")
	apiserver := start(t, "kubeloop apiserver", "apiserver", "--data-dir", dataDir, "--listen", freeAddr(t))
	apiserver.waitReady(t)
	kubeconfig := filepath.Join(dataDir, "kubeconfig")
	// Each as itself (the kubeconfigs in the data dir): the scheduler's
	// role lets it hold only the kube-scheduler Lease.
	node := start(t, "kubeloop kubelet", "kubelet", "--data-dir", dataDir, "--node-name", "solo")
	electing := []string{"scheduler", "--data-dir", dataDir, "--leader-elect",
		"--leader-elect-lease-duration=2s", "--leader-elect-renew-deadline=1500ms", "--leader-elect-retry-period=200ms"}
	one := start(t, "kubeloop scheduler (1)", electing...)
	two := start(t, "kubeloop scheduler (2)", electing...)

	cl := kubeloopClient(t, kubeconfig)
	ctx := context.Background()
	// No controller manager runs here, so the admin makes the account its
	// serviceaccount controller would, without which ServiceAccount
	// admission refuses the pods.
	_, err := client.For[*api.ServiceAccount](cl).Namespace("default").Create(ctx,
		&api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: api.DefaultServiceAccountName}}, client.CreateOptions{})
	require.NoError(t, err)
	pods := client.For[*api.Pod](cl).Namespace("default")
	bound := func(name string) {
		t.Helper()
		_, err := pods.Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: name},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}, client.CreateOptions{})
		require.NoError(t, err)
		require.Eventually(t, func() bool {
			p, err := pods.Get(ctx, name, client.GetOptions{})
			return err == nil && p.Spec.NodeName == "solo"
		}, deadline, tick, "pod %s is bound", name)
	}
	require.Eventually(t, func() bool { return leading(one) || leading(two) }, deadline, tick)
	leader, standby := one, two
	if leading(two) {
		leader, standby = two, one
	}
	require.False(t, leading(standby), "one leader at a time")
	bound("before")

	// SIGKILL: no release of the lease; the standby waits it out.
	require.NoError(t, leader.cmd.Process.Kill())
	<-leader.done
	require.Eventually(t, func() bool { return leading(standby) }, deadline, tick, "the standby takes over")
	bound("after")

	lease, err := client.For[*api.Lease](cl).Namespace("kube-system").Get(ctx, "kube-scheduler", client.GetOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 1, *lease.Spec.LeaseTransitions, "one handover")

	require.Equal(t, 0, standby.terminate(t))
	require.Equal(t, 0, node.terminate(t))
	require.Equal(t, 0, apiserver.terminate(t))
}
