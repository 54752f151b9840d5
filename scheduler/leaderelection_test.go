package scheduler

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

// bindingCounter counts the binding requests one scheduler sends.
type bindingCounter struct {
	base     http.RoundTripper
	bindings atomic.Int32
}

func (b *bindingCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/binding") {
		b.bindings.Add(1)
	}
	return b.base.RoundTrip(r)
}

// electedScheduler is one candidate of a test's election.
type electedScheduler struct {
	id      string
	counter *bindingCounter
	leading atomic.Bool
	stop    context.CancelFunc
	done    chan struct{}
}

func startElectedScheduler(t *testing.T, lease, id, schedulerName string) *electedScheduler {
	t.Helper()
	s := &electedScheduler{id: id, counter: &bindingCounter{}, done: make(chan struct{})}
	cfg := testCluster.Config.ForComponent("scheduler-" + id)
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { s.counter.base = rt; return s.counter }
	cl, err := client.NewForConfig(cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	go func() {
		defer close(s.done)
		err := RunWithLeaderElection(ctx, cl, Options{SchedulerName: schedulerName}, LeaderElectionConfig{
			Name: lease, Identity: id,
			LeaseDuration: 2 * time.Second, RenewDeadline: 1500 * time.Millisecond, RetryPeriod: 200 * time.Millisecond,
			OnStartedLeading: func() { s.leading.Store(true) },
			OnStoppedLeading: func() { s.leading.Store(false) },
		})
		if err != nil {
			t.Errorf("scheduler %s: %v", id, err)
		}
	}()
	t.Cleanup(s.kill)
	return s
}

// kill stops the candidate and waits until it has returned.
func (s *electedScheduler) kill() {
	s.stop()
	<-s.done
}

func TestOnlyTheLeadingSchedulerBindsAndTheStandbyTakesOverWhenItStops(t *testing.T) {
	e := newEnv(t, Options{})
	e.createNode("n1", "8", "16Gi")
	// The pods name a scheduler of their own, so no other test's
	// scheduler touches them.
	name := e.ns + "-scheduler"
	pod := func(n string) { e.createPod(n, "", "", func(p *api.Pod) { p.Spec.SchedulerName = name }) }
	lease := "kube-scheduler-" + e.ns
	a := startElectedScheduler(t, lease, "a", name)
	b := startElectedScheduler(t, lease, "b", name)

	leaseOf := func() *api.Lease {
		l, err := client.For[*api.Lease](testCluster.Client).Namespace("kube-system").Get(clustertest.Context(t), lease, client.GetOptions{})
		if api.IsNotFound(err) {
			return nil
		}
		require.NoError(t, err)
		return l
	}
	holder := func() string {
		l := leaseOf()
		if l == nil || l.Spec.HolderIdentity == nil {
			return ""
		}
		return *l.Spec.HolderIdentity
	}
	require.Eventually(t, func() bool { return a.leading.Load() || b.leading.Load() }, waitFor, tick)
	leader, standby := a, b
	if b.leading.Load() {
		leader, standby = b, a
	}
	require.Equal(t, leader.id, holder())

	for _, n := range []string{"p1", "p2", "p3"} {
		pod(n)
	}
	for _, n := range []string{"p1", "p2", "p3"} {
		e.waitBound(n)
	}
	require.EqualValues(t, 3, leader.counter.bindings.Load(), "the leader bound every pod")
	require.Zero(t, standby.counter.bindings.Load(), "the standby binds nothing")
	require.False(t, standby.leading.Load())

	leader.kill()
	require.Eventually(t, standby.leading.Load, waitFor, tick, "the standby takes over")
	require.Equal(t, standby.id, holder())
	pod("p4")
	e.waitBound("p4")
	require.EqualValues(t, 1, standby.counter.bindings.Load(), "the new leader binds the new pod")
	require.Greater(t, *leaseOf().Spec.LeaseTransitions, int32(0), "the handover is a lease transition")
}
