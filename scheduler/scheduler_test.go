package scheduler

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

// Nine equal pods on three equal nodes land three per node: each assumed
// pod lowers its node's LeastAllocated score by more than one point (500m
// of 4 cpu is 12 points), so the next pod always prefers a node with fewer
// pods, and random tie-breaks only choose among nodes with equal counts.
func TestSpreadsEqualPodsEvenlyOverEqualNodes(t *testing.T) {
	e := newEnv(t, Options{})
	for _, n := range []string{"a", "b", "c"} {
		e.createNode(n, "4", "8Gi")
	}
	e.start()
	for i := range 9 {
		e.createPod(fmt.Sprintf("web-%d", i), "500m", "1Gi")
	}
	perNode := map[string]int{}
	for i := range 9 {
		perNode[e.waitBound(fmt.Sprintf("web-%d", i))]++
	}
	assert.Equal(t, map[string]int{e.nodeName("a"): 3, e.nodeName("b"): 3, e.nodeName("c"): 3}, perNode)

	node := e.getPod("web-0").Spec.NodeName
	e.waitEvent("web-0", "Scheduled", fmt.Sprintf("Successfully assigned %s/web-0 to %s", e.ns, node))
	c, ok := podScheduledCondition(e.getPod("web-0"))
	require.True(t, ok)
	assert.Equal(t, api.ConditionTrue, c.Status)

	// The cache has confirmed every assumption through the informer.
	require.Eventually(t, func() bool {
		_, assumed := e.sched.cache.Dump()
		return len(assumed) == 0
	}, waitFor, tick)
	nodes, _ := e.sched.cache.Dump()
	assert.Equal(t, int64(1500), nodes[e.nodeName("a")].Requested.MilliCPU)
}

func TestPodsThatDoNotFitWaitUntilABiggerNodeJoins(t *testing.T) {
	e := newEnv(t, Options{})
	e.createNode("small-1", "1", "4Gi")
	e.createNode("small-2", "1", "4Gi")
	e.start()
	e.createPod("big-0", "2", "1Gi")
	e.createPod("big-1", "2", "1Gi")

	const msg = "0/2 nodes are available: 2 Insufficient cpu."
	e.waitUnschedulable("big-0", msg)
	e.waitUnschedulable("big-1", msg)
	e.waitEvent("big-0", "FailedScheduling", msg)
	require.Eventually(t, func() bool {
		_, _, unschedulable, _ := e.sched.queue.PendingPods()
		return unschedulable == 2
	}, waitFor, tick, "both pods wait for a cluster event")

	e.createNode("large", "8", "16Gi")
	assert.Equal(t, e.nodeName("large"), e.waitBound("big-0"))
	assert.Equal(t, e.nodeName("large"), e.waitBound("big-1"))
}

func TestNoNodesMeansUnschedulableUntilOneRegisters(t *testing.T) {
	e := newEnv(t, Options{})
	e.start()
	e.createPod("lonely", "100m", "")
	e.waitUnschedulable("lonely", ErrNoNodesAvailable.Error())
	e.createNode("first", "1", "1Gi")
	assert.Equal(t, e.nodeName("first"), e.waitBound("lonely"))
}

func TestNodeSelectorTaintsAndCordonedNodes(t *testing.T) {
	e := newEnv(t, Options{})
	ssd := func(n *api.Node) { n.Labels["disk"] = "ssd" }
	e.createNode("ssd", "4", "8Gi", ssd)
	e.createNode("plain", "4", "8Gi")
	e.createNode("gpu", "4", "8Gi", ssd, func(n *api.Node) {
		n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule}}
	})
	e.createNode("cordoned", "4", "8Gi", ssd, func(n *api.Node) { n.Spec.Unschedulable = true })
	e.start()

	onSSD := func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"disk": "ssd"} }
	tolerateGPU := func(p *api.Pod) {
		p.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpEqual, Value: "gpu", Effect: api.TaintEffectNoSchedule}}
	}
	onlyGPU := func(p *api.Pod) {
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
			NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{
				{Key: "kubernetes.io/hostname", Operator: api.NodeSelectorOpIn, Values: []string{e.nodeName("gpu")}}}}}}}}
	}
	for i := range 4 {
		e.createPod(fmt.Sprintf("ssd-%d", i), "100m", "", onSSD)
	}
	e.createPod("gpu-job", "100m", "", tolerateGPU, onlyGPU)
	e.createPod("nvme", "100m", "", func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"disk": "nvme"} })

	for i := range 4 {
		assert.Equal(t, e.nodeName("ssd"), e.waitBound(fmt.Sprintf("ssd-%d", i)),
			"only the untainted, uncordoned ssd node qualifies")
	}
	assert.Equal(t, e.nodeName("gpu"), e.waitBound("gpu-job"))
	// The first failing filter names each node: cordoned before tainted
	// before the selector.
	e.waitUnschedulable("nvme", "0/4 nodes are available: 1 node(s) had untolerated taint(s), "+
		"1 node(s) were unschedulable, 2 node(s) didn't match Pod's node affinity/selector.")

	// Relabelling a node is a node event: the pod is retried and fits.
	nodes := client.For[*api.Node](e.cl)
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		n, err := nodes.Get(clustertest.Context(t), e.nodeName("plain"), client.GetOptions{})
		if err != nil {
			return err
		}
		n.Labels["disk"] = "nvme"
		_, err = nodes.Update(clustertest.Context(t), n, client.UpdateOptions{})
		return err
	}))
	assert.Equal(t, e.nodeName("plain"), e.waitBound("nvme"))
}

func TestPodsOfOtherSchedulersAreLeftAlone(t *testing.T) {
	e := newEnv(t, Options{})
	e.createNode("a", "1", "1Gi")
	e.start()
	e.createPod("theirs", "", "", func(p *api.Pod) { p.Spec.SchedulerName = "someone-else" })
	e.createPod("ours", "", "")
	e.waitBound("ours")
	p := e.getPod("theirs")
	assert.Empty(t, p.Spec.NodeName)
	assert.Empty(t, p.Status.Conditions)
	// "ours" leaves the in-flight set just after its binding lands, so wait
	// for the queue to empty; "theirs" would keep it non-empty forever.
	require.Eventually(t, func() bool {
		active, backoff, unschedulable, inFlight := e.sched.queue.PendingPods()
		return active+backoff+unschedulable+inFlight == 0
	}, waitFor, tick)
}

// Another scheduler binds the pod between our choice and our binding: the
// apiserver answers Conflict, the assumption is forgotten, and the cache
// ends up with the pod where the API says it is.
func TestLostBindingRaceForgetsTheAssumedPod(t *testing.T) {
	e := newEnv(t, Options{})
	e.createNode("a", "4", "8Gi")
	e.createNode("b", "4", "8Gi")
	realBind := e.sched.bind
	var raced atomic.Bool
	var rivalNode atomic.Value
	e.sched.bind = func(ctx context.Context, b *api.Binding) error {
		if b.Name == "contested" && raced.CompareAndSwap(false, true) {
			other := e.nodeName("a")
			if b.Target.Name == other {
				other = e.nodeName("b")
			}
			rivalNode.Store(other)
			rival := *b
			rival.Target.Name = other
			if err := realBind(ctx, &rival); err != nil {
				return fmt.Errorf("rival bind: %w", err)
			}
		}
		return realBind(ctx, b)
	}
	e.start()
	e.createPod("contested", "1", "1Gi")

	require.Eventually(t, raced.Load, waitFor, tick)
	want := rivalNode.Load().(string)
	assert.Equal(t, want, e.waitBound("contested"))
	e.waitEvent("contested", "FailedScheduling", "binding rejected")
	require.Eventually(t, func() bool {
		nodes, assumed := e.sched.cache.Dump()
		return len(assumed) == 0 && len(nodes[want].Pods) == 1 && len(nodes[otherOf(e, want)].Pods) == 0
	}, waitFor, tick, "the cache should hold the pod on %s only", want)
	require.Eventually(t, func() bool {
		a, b, u, f := e.sched.queue.PendingPods()
		return a+b+u+f == 0
	}, waitFor, tick, "the bound pod must leave the queue")

	// The scheduler carries on.
	e.createPod("next", "1", "1Gi")
	e.waitBound("next")
}

func otherOf(e *env, node string) string {
	if node == e.nodeName("a") {
		return e.nodeName("b")
	}
	return e.nodeName("a")
}

// The pod is deleted after it was assumed and before the binding: the
// binding fails with NotFound, the assumption is forgotten and nothing is
// requeued.
func TestPodDeletedBeforeBindingIsForgotten(t *testing.T) {
	e := newEnv(t, Options{})
	e.createNode("a", "4", "8Gi")
	realBind := e.sched.bind
	var bindErr atomic.Value
	e.sched.bind = func(ctx context.Context, b *api.Binding) error {
		if b.Name == "doomed" {
			zero := int64(0)
			if err := client.For[*api.Pod](e.cl).Namespace(b.Namespace).Delete(ctx, b.Name, api.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
				return fmt.Errorf("test delete: %w", err)
			}
		}
		err := realBind(ctx, b)
		if b.Name == "doomed" {
			bindErr.Store(fmt.Sprint(err))
		}
		return err
	}
	e.start()
	e.createPod("doomed", "1", "1Gi")
	require.Eventually(t, func() bool { return bindErr.Load() != nil }, waitFor, tick)
	assert.Contains(t, bindErr.Load().(string), "not found")

	require.Eventually(t, func() bool {
		nodes, assumed := e.sched.cache.Dump()
		a, b, u, f := e.sched.queue.PendingPods()
		return len(assumed) == 0 && len(nodes[e.nodeName("a")].Pods) == 0 && a+b+u+f == 0
	}, waitFor, tick, "no trace of the deleted pod may remain")

	e.createPod("survivor", "1", "1Gi")
	assert.Equal(t, e.nodeName("a"), e.waitBound("survivor"))
}
