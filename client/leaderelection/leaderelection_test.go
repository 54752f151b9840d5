package leaderelection_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/client/leaderelection"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
)

// testCluster is one apiserver + etcd for the whole package; every test uses
// its own Lease name.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{}, func(c *cluster.Cluster) { testCluster = c })
}

const (
	testLease = 2 * time.Second
	testRenew = 1500 * time.Millisecond
	testRetry = 200 * time.Millisecond
	deadline  = 20 * time.Second
	tick      = 20 * time.Millisecond
)

var leaseCounter atomic.Int64

func newLeaseName() string { return fmt.Sprintf("lease-%d", leaseCounter.Add(1)) }

// candidate is one running elector and what its callbacks saw.
type candidate struct {
	id      string
	el      *leaderelection.LeaderElector
	started atomic.Int32
	stopped atomic.Int32
	// leadCtx is the context OnStartedLeading got.
	leadCtx atomic.Pointer[context.Context]
	cancel  context.CancelFunc
	done    chan struct{}
}

func startCandidate(t *testing.T, lease, id string, mutate func(*leaderelection.Config)) *candidate {
	t.Helper()
	cl, err := testCluster.NewClient("le-" + id)
	require.NoError(t, err)
	cand := &candidate{id: id, done: make(chan struct{})}
	cfg := leaderelection.Config{
		Client: cl, Namespace: "default", Name: lease, Identity: id,
		LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry,
		Callbacks: leaderelection.Callbacks{
			OnStartedLeading: func(ctx context.Context) {
				cand.leadCtx.Store(&ctx)
				cand.started.Add(1)
				<-ctx.Done()
			},
			OnStoppedLeading: func() { cand.stopped.Add(1) },
		},
	}
	if mutate != nil {
		mutate(&cfg)
	}
	el, err := leaderelection.New(cfg)
	require.NoError(t, err)
	cand.el = el
	ctx, cancel := context.WithCancel(context.Background())
	cand.cancel = cancel
	go func() {
		defer close(cand.done)
		el.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-cand.done
	})
	return cand
}

func (c *candidate) stop(t *testing.T) {
	t.Helper()
	c.cancel()
	select {
	case <-c.done:
	case <-time.After(deadline):
		t.Fatalf("candidate %s did not return from Run", c.id)
	}
}

func getLease(t *testing.T, name string) *api.Lease {
	t.Helper()
	l, err := client.For[*api.Lease](testCluster.Client).Namespace("default").Get(context.Background(), name, client.GetOptions{})
	require.NoError(t, err)
	return l
}

func holder(l *api.Lease) string {
	if l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

func transitions(l *api.Lease) int32 {
	if l.Spec.LeaseTransitions == nil {
		return 0
	}
	return *l.Spec.LeaseTransitions
}

// waitForLeader waits until exactly one of the candidates has started
// leading and returns (leader, follower).
func waitForLeader(t *testing.T, a, b *candidate) (*candidate, *candidate) {
	t.Helper()
	require.Eventually(t, func() bool { return a.started.Load()+b.started.Load() > 0 }, deadline, tick)
	if a.started.Load() > 0 {
		return a, b
	}
	return b, a
}

func TestOnlyOneOfTwoCandidatesLeads(t *testing.T) {
	name := newLeaseName()
	a := startCandidate(t, name, "a", nil)
	b := startCandidate(t, name, "b", nil)
	leader, follower := waitForLeader(t, a, b)

	// Let the leader hold the lease for more than two lease durations: a
	// follower that ignored a live lease would have taken it by then.
	require.Eventually(t, func() bool {
		l := getLease(t, name)
		return l.Spec.AcquireTime != nil && l.Spec.RenewTime != nil &&
			l.Spec.RenewTime.Sub(l.Spec.AcquireTime.Time) > 2*testLease
	}, deadline, tick)

	require.Equal(t, int32(1), leader.started.Load(), "OnStartedLeading is called once")
	require.Zero(t, follower.started.Load(), "the follower never leads while the lease is renewed")
	require.Zero(t, leader.stopped.Load())
	l := getLease(t, name)
	require.Equal(t, leader.id, holder(l))
	require.Equal(t, int32(2), *l.Spec.LeaseDurationSeconds)
	require.True(t, leader.el.IsLeader())
	require.False(t, follower.el.IsLeader())
}

func TestReleaseOnCancelLetsTheFollowerTakeOverWithoutWaitingOutTheLease(t *testing.T) {
	name := newLeaseName()
	// A long lease: if the release did not happen, the takeover would need
	// 30 s, past the test's deadline.
	long := func(c *leaderelection.Config) {
		c.ReleaseOnCancel = true
		c.LeaseDuration, c.RenewDeadline = 30*time.Second, 10*time.Second
	}
	a := startCandidate(t, name, "a", long)
	b := startCandidate(t, name, "b", long)
	leader, follower := waitForLeader(t, a, b)
	before := transitions(getLease(t, name))

	leader.stop(t)
	require.Equal(t, int32(1), leader.stopped.Load(), "OnStoppedLeading is called when Run returns")
	ctx := *leader.leadCtx.Load()
	require.Error(t, ctx.Err(), "the leader's work context is cancelled before Run returns")
	require.False(t, leader.el.IsLeader(), "a released lease is not ours any more")

	require.Eventually(t, func() bool { return follower.started.Load() == 1 }, deadline, tick)
	l := getLease(t, name)
	require.Equal(t, follower.id, holder(l))
	require.Equal(t, before+1, transitions(l), "a change of holder bumps leaseTransitions")
}

func TestWithoutReleaseTheFollowerWaitsOutTheLease(t *testing.T) {
	name := newLeaseName()
	a := startCandidate(t, name, "a", nil)
	b := startCandidate(t, name, "b", nil)
	leader, follower := waitForLeader(t, a, b)
	before := transitions(getLease(t, name))

	leader.stop(t)
	last := getLease(t, name)
	require.Equal(t, leader.id, holder(last), "without ReleaseOnCancel the lease keeps its holder")

	require.Eventually(t, func() bool { return follower.started.Load() == 1 }, deadline, tick)
	l := getLease(t, name)
	require.Equal(t, follower.id, holder(l))
	require.Equal(t, before+1, transitions(l))
	// The follower may take the lease only once it has gone unrenewed for
	// a whole lease duration (both run on this machine's clock).
	require.False(t, l.Spec.AcquireTime.Before(last.Spec.RenewTime.Add(testLease-time.Millisecond)),
		"acquired at %s, last renewal %s", l.Spec.AcquireTime, last.Spec.RenewTime)
}

func TestLeaderStepsDownWhenItCannotRenew(t *testing.T) {
	name := newLeaseName()
	a := startCandidate(t, name, "a", nil)
	require.Eventually(t, func() bool { return a.started.Load() == 1 }, deadline, tick)

	// Someone else takes the lease behind a's back, with a fresh renewal:
	// a's renewals now fail, and since the renew deadline (1.5 s) is
	// shorter than the intruder's lease (2 s), a must give up before it
	// would be allowed to take the lease back.
	leases := client.For[*api.Lease](testCluster.Client).Namespace("default")
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		l := getLease(t, name)
		intruder := "intruder"
		now := api.NowMicro()
		l.Spec.HolderIdentity = &intruder
		l.Spec.RenewTime = &now
		_, err := leases.Update(context.Background(), l, client.UpdateOptions{})
		return err
	}))

	require.Eventually(t, func() bool { return a.stopped.Load() == 1 }, deadline, tick)
	select {
	case <-a.done:
	case <-time.After(deadline):
		t.Fatal("Run did not return after losing the lease")
	}
	require.Error(t, (*a.leadCtx.Load()).Err(), "the leader's work context ends when it steps down")
	require.False(t, a.el.IsLeader())
	require.Equal(t, "intruder", holder(getLease(t, name)), "a stepped down without overwriting the live lease")
}

func TestRunWaitsForTheLeadersWorkBeforeReleasing(t *testing.T) {
	name := newLeaseName()
	cl, err := testCluster.NewClient("le-slow")
	require.NoError(t, err)
	var mu sync.Mutex
	var holderWhenWorkEnded string
	el, err := leaderelection.New(leaderelection.Config{
		Client: cl, Namespace: "default", Name: name, Identity: "slow",
		LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry, ReleaseOnCancel: true,
		Callbacks: leaderelection.Callbacks{
			OnStartedLeading: func(ctx context.Context) {
				<-ctx.Done()
				// Work that takes a while to wind down must still be
				// covered by the lease.
				l, err := client.For[*api.Lease](testCluster.Client).Namespace("default").Get(context.Background(), name, client.GetOptions{})
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					holderWhenWorkEnded = holder(l)
				}
			},
			OnStoppedLeading: func() {},
		},
	})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); el.Run(ctx) }()
	require.Eventually(t, el.IsLeader, deadline, tick)
	cancel()
	<-done
	mu.Lock()
	require.Equal(t, "slow", holderWhenWorkEnded, "the lease is released only after the work stopped")
	mu.Unlock()
	require.Equal(t, "", holder(getLease(t, name)), "then it is released")
}

func TestNewRejectsBadConfigs(t *testing.T) {
	good := func() leaderelection.Config {
		return leaderelection.Config{
			Client: testCluster.Client, Namespace: "default", Name: "x", Identity: "me",
			LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry,
			Callbacks: leaderelection.Callbacks{
				OnStartedLeading: func(context.Context) {},
				OnStoppedLeading: func() {},
			},
		}
	}
	_, err := leaderelection.New(good())
	require.NoError(t, err, "the base config is valid")

	cases := []struct {
		name   string
		mutate func(*leaderelection.Config)
		want   string
	}{
		{"no client", func(c *leaderelection.Config) { c.Client = nil }, "client"},
		{"no namespace", func(c *leaderelection.Config) { c.Namespace = "" }, "namespace"},
		{"no name", func(c *leaderelection.Config) { c.Name = "" }, "name"},
		{"no identity", func(c *leaderelection.Config) { c.Identity = "" }, "identity"},
		{"negative retry", func(c *leaderelection.Config) { c.RetryPeriod = -time.Second }, "positive"},
		{"negative renew", func(c *leaderelection.Config) { c.RenewDeadline = -time.Second }, "positive"},
		{"negative lease", func(c *leaderelection.Config) { c.LeaseDuration = -time.Second }, "positive"},
		{"sub-second lease", func(c *leaderelection.Config) {
			c.LeaseDuration, c.RenewDeadline, c.RetryPeriod = 900*time.Millisecond, 600*time.Millisecond, 100*time.Millisecond
		}, "one second"},
		{"lease not above renew", func(c *leaderelection.Config) { c.RenewDeadline = c.LeaseDuration }, "greater than renew deadline"},
		{"renew not above 1.2 retry", func(c *leaderelection.Config) { c.RetryPeriod = 1250 * time.Millisecond }, "1.2"},
		{"defaults with long retry", func(c *leaderelection.Config) {
			c.LeaseDuration, c.RenewDeadline, c.RetryPeriod = 0, 0, 9*time.Second
		}, "1.2"},
		{"no OnStartedLeading", func(c *leaderelection.Config) { c.Callbacks.OnStartedLeading = nil }, "OnStartedLeading"},
		{"no OnStoppedLeading", func(c *leaderelection.Config) { c.Callbacks.OnStoppedLeading = nil }, "OnStoppedLeading"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := good()
			tc.mutate(&cfg)
			el, err := leaderelection.New(cfg)
			require.ErrorContains(t, err, tc.want)
			require.Nil(t, el)
		})
	}
}

func TestZeroDurationsMeanKubernetesDefaults(t *testing.T) {
	cfg := leaderelection.Config{
		Client: testCluster.Client, Namespace: "default", Name: newLeaseName(), Identity: "me",
		Callbacks: leaderelection.Callbacks{
			OnStartedLeading: func(ctx context.Context) { <-ctx.Done() },
			OnStoppedLeading: func() {},
		},
	}
	el, err := leaderelection.New(cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); el.Run(ctx) }()
	defer func() { cancel(); <-done }()
	require.Eventually(t, el.IsLeader, deadline, tick)
	require.Equal(t, int32(15), *getLease(t, cfg.Name).Spec.LeaseDurationSeconds)
}
