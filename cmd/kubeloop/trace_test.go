package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/full"
	"kubeloop/kubelet"
	"kubeloop/trace"
)

// hop names one line of the spine: an arrow, a site and who reports it.
type hop struct {
	step      trace.Step
	hop       trace.Hop
	component string // a prefix: "kubelet" matches every node's
}

func (h hop) matches(e trace.Event) bool {
	return e.Step == h.step && e.Hop == h.hop && strings.HasPrefix(e.Component, h.component)
}

// The ReplicaSet's part of the spine, each hop caused by the one before and
// reported before it causes the next.
var replicaSetChain = []hop{
	{1, trace.APIServerReceived, "apiserver"},
	{3, trace.WatchDispatched, "watch cache"},
	{3, trace.ReflectorReceived, "controller-manager"},
	{3, trace.DeltaFIFOQueued, "controller-manager"},
	{3, trace.InformerHandler, "controller-manager"},
	{3, trace.WorkqueueAdd, "replicaset"},
	{4, trace.WorkqueueGet, "replicaset"},
	{4, trace.Reconcile, "replicaset"},
}

// Each new pod's part, likewise in causal order. The hops reported when an
// answer comes back (etcd committed, pod create, scheduler bind, status
// written) are not in it: the watch event of a write may overtake its
// answer. They are checked apart.
var podChain = []hop{
	{6, trace.WatchDispatched, "watch cache"},
	{6, trace.ReflectorReceived, "scheduler"},
	{6, trace.DeltaFIFOQueued, "scheduler"},
	{6, trace.InformerHandler, "scheduler"},
	{7, trace.SchedulerFilter, "scheduler"},
	{7, trace.SchedulerScore, "scheduler"},
	{7, trace.APIServerReceived, "apiserver"},
	{8, trace.WatchDispatched, "watch cache"},
	{8, trace.ReflectorReceived, "kubelet"},
	{8, trace.DeltaFIFOQueued, "kubelet"},
	{8, trace.InformerHandler, "kubelet"},
	{9, trace.KubeletStart, "kubelet"},
	{10, trace.APIServerReceived, "apiserver"},
	{10, trace.WatchDispatched, "watch cache"},
	{10, trace.ReflectorReceived, "controller-manager"},
	{10, trace.InformerHandler, "controller-manager"},
	{10, trace.RunningObserved, "replicaset"},
}

// afterAnswer are the hops reported once a write's answer is back, with
// the request they answer.
var afterAnswer = []struct{ request, answer hop }{
	{hop{5, trace.APIServerReceived, "apiserver"}, hop{5, trace.EtcdCommitted, "etcd"}},
	{hop{5, trace.APIServerReceived, "apiserver"}, hop{5, trace.PodCreate, "replicaset"}},
	{hop{7, trace.APIServerReceived, "apiserver"}, hop{7, trace.EtcdCommitted, "etcd"}},
	{hop{7, trace.APIServerReceived, "apiserver"}, hop{7, trace.SchedulerBind, "scheduler"}},
	{hop{10, trace.APIServerReceived, "apiserver"}, hop{10, trace.EtcdCommitted, "etcd"}},
	{hop{10, trace.APIServerReceived, "apiserver"}, hop{10, trace.StatusWritten, "kubelet"}},
}

// firstAfter is the index of the first event from index from on that h
// matches among those of key, or -1.
func firstAfter(events []trace.Event, from int, key string, h hop) int {
	for i := from; i < len(events); i++ {
		if events[i].Key == key && h.matches(events[i]) {
			return i
		}
	}
	return -1
}

// requireChain checks that key's events hold chain in order (each hop at
// or after the previous one) and returns where each hop was found.
func requireChain(t *testing.T, events []trace.Event, key string, chain []hop, from int) []int {
	t.Helper()
	at := make([]int, len(chain))
	for i, h := range chain {
		at[i] = firstAfter(events, from, key, h)
		require.NotEqual(t, -1, at[i], "%s: no %+v after %+v in the trace:\n%s", key, h, chain[max(i-1, 0)], printed(events))
		from = at[i]
	}
	return at
}

func printed(events []trace.Event) string {
	var b strings.Builder
	_ = trace.Print(&b, events)
	return b.String()
}

func startTraceCluster(t *testing.T) *cluster.Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	c, err := full.Start(ctx, cluster.Options{}, full.Options{Nodes: 3, Kubelet: kubelet.Options{PLEGPeriod: 50 * time.Millisecond}})
	require.NoError(t, err)
	t.Cleanup(c.Stop)
	return c
}

// TestTraceOfScaleToFiveHoldsEveryStepInCausalOrder runs `make trace`'s
// scenario: the ReplicaSet's hops 1 to 4, then for each of the two new pods
// hops 5 to 10, each after its cause.
func TestTraceOfScaleToFiveHoldsEveryStepInCausalOrder(t *testing.T) {
	c := startTraceCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	events, err := traceScaleToFive(ctx, c, "default", "web")
	require.NoError(t, err)

	rsAt := requireChain(t, events, "default/web", replicaSetChain, 0)
	assert.Equal(t, 0, rsAt[0], "the trace starts at the scale's arrival")
	reconcile := events[rsAt[len(rsAt)-1]]
	assert.Equal(t, "want 5, have 3", reconcile.Detail)
	commit := firstAfter(events, 0, "default/web", hop{2, trace.EtcdCommitted, "etcd"})
	require.NotEqual(t, -1, commit, "arrow 2: the ReplicaSet's write")
	assert.NotEmpty(t, events[commit].ResourceVersion)

	var pods []string
	for _, e := range events {
		if e.Hop == trace.PodCreate {
			pods = append(pods, e.Key)
		}
	}
	require.Len(t, pods, 2, "two pods created:\n%s", printed(events))
	creates := 0
	for _, e := range events {
		if e.Step == 5 && e.Hop == trace.APIServerReceived {
			creates++
			assert.Equal(t, "default/web-*", e.Key, "a create's name is the server's to pick")
		}
	}
	assert.Equal(t, 2, creates)

	for _, p := range pods {
		at := requireChain(t, events, p, podChain, rsAt[len(rsAt)-1])
		for _, h := range podChain {
			if h.hop == trace.WatchDispatched || h.hop == trace.ReflectorReceived {
				e := events[firstAfter(events, 0, p, h)]
				assert.NotEmpty(t, e.ResourceVersion, "%s %+v carries the resourceVersion", p, h)
			}
		}
		for _, a := range afterAnswer {
			req := firstAfter(events, 0, p, a.request)
			if a.request.step == 5 {
				req = firstAfter(events, 0, "default/web-*", a.request)
			}
			require.NotEqual(t, -1, req, "%s: %+v", p, a.request)
			assert.NotEqual(t, -1, firstAfter(events, req, p, a.answer), "%s: %+v after %+v:\n%s", p, a.answer, a.request, printed(events))
		}
		assert.Less(t, at[0], len(events))
	}
	for _, e := range events {
		assert.False(t, e.Time.IsZero())
	}
}

// TestNoEventWhileNobodyListens creates a ReplicaSet whose pods go through
// the whole spine while no one listens: no site emits anything.
func TestNoEventWhileNobodyListens(t *testing.T) {
	c := startTraceCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	require.False(t, trace.On())
	before := trace.Emitted()

	rsc := client.For[*api.ReplicaSet](c.Client).Namespace("default")
	_, err := rsc.Create(ctx, webReplicaSet("default", "quiet", 2), client.CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, waitFor(ctx, func() (bool, error) {
		rs, err := rsc.Get(ctx, "quiet", client.GetOptions{})
		return err == nil && rs.Status.AvailableReplicas == 2, err
	}))
	assert.Equal(t, before, trace.Emitted(), "the switch is off: every site returned at its check, none called Emit")
}
