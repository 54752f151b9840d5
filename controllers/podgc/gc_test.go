package podgc

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

func TestTerminatedPodsOverTheThresholdGoEvictedFirstThenOldest(t *testing.T) {
	e := newEnv(t, Options{TerminatedPodThreshold: 3})
	node := e.createNode("n", api.ConditionTrue)
	old := e.createPod("z-oldest", node, api.PodSucceeded)
	// Creation times have whole seconds: the others are created a second
	// later, so only z-oldest is older than them; among equals the name
	// decides.
	require.Eventually(t, func() bool { return time.Now().Unix() > old.CreationTimestamp.Unix() }, waitFor, tick)
	e.createPod("a", node, api.PodFailed)
	e.createPod("b", node, api.PodSucceeded)
	e.createPod("c", node, api.PodSucceeded)
	e.createPod("y-evicted", node, "")
	evicted, err := e.pods().Get(clustertest.Context(t), "y-evicted", client.GetOptions{})
	require.NoError(t, err)
	evicted.Status.Phase, evicted.Status.Reason = api.PodFailed, "Evicted"
	_, err = e.pods().UpdateStatus(clustertest.Context(t), evicted, client.UpdateOptions{})
	require.NoError(t, err)
	e.createPod("running", node, api.PodRunning)

	// Six pods, five terminated, threshold three: the evicted one and the
	// oldest go.
	e.waitGone("y-evicted")
	e.waitGone("z-oldest")
	assert.ElementsMatch(t, []string{"a", "b", "c", "running"}, e.podNames())
}

func TestPodsOfADeletedNodeAreFailedWithDisruptionTargetThenDeletedAfterTheQuarantine(t *testing.T) {
	const quarantine = time.Second
	e := newEnv(t, Options{QuarantineTime: quarantine})
	node := e.createNode("gone", api.ConditionTrue)
	e.createPod("orphan", node, api.PodRunning)
	// Watch the pod to see its last state before it goes.
	w, err := e.pods().Watch(clustertest.Context(t), client.ListOptions{})
	require.NoError(t, err)
	defer w.Stop()

	deletedAt := time.Now()
	require.NoError(t, client.For[*api.Node](testCluster.Client).Delete(clustertest.Context(t), node, api.DeleteOptions{}))
	var last *api.Pod
	timeout := time.After(waitFor)
	for gone := false; !gone; {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "watch ended")
			p, isPod := ev.Object.(*api.Pod)
			if !isPod {
				continue
			}
			if ev.Type == api.Deleted {
				gone = true
				break
			}
			last = p
		case <-timeout:
			t.Fatal("the orphaned pod was never deleted")
		}
	}
	require.GreaterOrEqual(t, time.Since(deletedAt), quarantine, "not before the node's quarantine is over")
	require.NotNil(t, last)
	assert.Equal(t, api.PodFailed, last.Status.Phase, "marked Failed before it is deleted")
	var cond *api.PodCondition
	for i := range last.Status.Conditions {
		if last.Status.Conditions[i].Type == api.DisruptionTarget {
			cond = &last.Status.Conditions[i]
		}
	}
	require.NotNil(t, cond, "a DisruptionTarget condition: %+v", last.Status.Conditions)
	assert.Equal(t, api.ConditionTrue, cond.Status)
	assert.Equal(t, "DeletionByPodGC", cond.Reason)
	assert.Equal(t, "PodGC: node no longer exists", cond.Message)
}

func TestPodsOfLiveNodesAndTerminatedPodsUnderTheThresholdStay(t *testing.T) {
	e := newEnv(t, Options{})
	live := e.createNode("live", api.ConditionTrue)
	gone := e.createNode("gone", api.ConditionTrue)
	e.createPod("running", live, api.PodRunning)
	e.createPod("done", live, api.PodSucceeded)
	// Bound to a node that is about to go: once the collector has deleted
	// it, its sweeps have seen the others too.
	e.createPod("orphan", gone, api.PodRunning)
	require.NoError(t, client.For[*api.Node](testCluster.Client).Delete(clustertest.Context(t), gone, api.DeleteOptions{}))
	e.waitGone("orphan")
	assert.ElementsMatch(t, []string{"running", "done"}, e.podNames(), "threshold 0 keeps terminated pods; a live node keeps its pods")
}

func TestUnscheduledTerminatingPodIsFailedAndForceDeleted(t *testing.T) {
	e := newEnv(t, Options{})
	// A finalizer keeps the unbound pod terminating: no kubelet will ever
	// confirm its deletion.
	e.createPod("stuck", "", "", func(p *api.Pod) { p.Finalizers = []string{"example.com/hold"} })
	require.NoError(t, e.pods().Delete(clustertest.Context(t), "stuck", api.DeleteOptions{}))
	require.Eventually(t, func() bool {
		p, err := e.pods().Get(clustertest.Context(t), "stuck", client.GetOptions{})
		require.NoError(t, err)
		return p.Status.Phase == api.PodFailed && p.DeletionGracePeriodSeconds != nil && *p.DeletionGracePeriodSeconds == 0
	}, waitFor, tick, "marked Failed and force-deleted")
	_, err := e.pods().Patch(clustertest.Context(t), "stuck", client.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), client.PatchOptions{})
	require.NoError(t, err)
	e.waitGone("stuck")
}

func TestTerminatingPodOnAnOutOfServiceNodeIsForceDeleted(t *testing.T) {
	e := newEnv(t, Options{})
	down := e.createNode("down", api.ConditionFalse, api.Taint{Key: taintNodeOutOfService, Value: "nodeshutdown", Effect: api.TaintEffectNoExecute})
	merelyDown := e.createNode("merely-down", api.ConditionFalse)
	e.createPod("on-down", down, api.PodRunning)
	e.createPod("on-merely-down", merelyDown, api.PodRunning)
	// Graceful deletes: bound pods wait for their kubelet, which is gone.
	require.NoError(t, e.pods().Delete(clustertest.Context(t), "on-merely-down", api.DeleteOptions{}))
	require.NoError(t, e.pods().Delete(clustertest.Context(t), "on-down", api.DeleteOptions{}))
	e.waitGone("on-down")
	p, err := e.pods().Get(clustertest.Context(t), "on-merely-down", client.GetOptions{})
	require.NoError(t, err, "without the out-of-service taint the pod waits for its kubelet")
	assert.NotNil(t, p.DeletionTimestamp)
}
