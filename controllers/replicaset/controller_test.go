package replicaset

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

func TestScaleUpAndDownConvergesExactly(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	cl := testCluster.Client
	tracker := trackPods(t, cl, ns)
	rs := createRS(t, cl, newReplicaSet(ns, "web", "web", 0))
	requireConverged(t, cl, ns, "web", "app=web", 0)

	scaleTo(t, cl, ns, "web", 50)
	requireConverged(t, cl, ns, "web", "app=web", 50)
	for _, p := range listPods(t, cl, ns, "app=web") {
		assert.Equal(t, "web-", p.GenerateName)
		assert.Equal(t, map[string]string{"app": "web", "tier": "web"}, p.Labels)
		ref := controllerRefOf(p)
		require.NotNil(t, ref, "pod %s has a controller reference", p.Name)
		assert.Equal(t, api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: rs.UID,
			Controller: ref.Controller, BlockOwnerDeletion: ref.BlockOwnerDeletion}, *ref)
		require.NotNil(t, ref.BlockOwnerDeletion)
		assert.True(t, *ref.BlockOwnerDeletion)
	}

	scaleTo(t, cl, ns, "web", 5)
	requireConverged(t, cl, ns, "web", "app=web", 5)
	scaleTo(t, cl, ns, "web", 0)
	requireConverged(t, cl, ns, "web", "app=web", 0)

	assert.LessOrEqual(t, tracker.Max(), 50, "never more pods than the largest target")
	assert.Equal(t, 50, tracker.Max(), "the watch saw the full 50")
	final := getRS(t, cl, ns, "web")
	assert.Empty(t, final.Status.Conditions, "no ReplicaFailure after a clean run")
}

func TestDeletedPodsAreRecreated(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	cl := testCluster.Client
	createRS(t, cl, newReplicaSet(ns, "web", "web", 3))
	requireConverged(t, cl, ns, "web", "app=web", 3)

	before := listPods(t, cl, ns, "app=web")
	gone := map[string]bool{}
	for _, p := range before[:2] {
		require.NoError(t, client.For[*api.Pod](cl).Namespace(ns).Delete(clustertest.Context(t), p.Name, api.DeleteOptions{}))
		gone[p.Name] = true
	}
	require.Eventually(t, func() bool {
		pods := listPods(t, cl, ns, "app=web")
		if len(pods) != 3 {
			return false
		}
		for _, p := range pods {
			if gone[p.Name] {
				return false
			}
		}
		return true
	}, waitFor, tick, "two replacements appear")
	requireConverged(t, cl, ns, "web", "app=web", 3)
}

func TestMatchingOrphanIsAdopted(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	cl := testCluster.Client
	orphan := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "stray", Namespace: ns, Labels: map[string]string{"app": "web", "tier": "web"}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx"}}},
	}
	_, err := client.For[*api.Pod](cl).Namespace(ns).Create(clustertest.Context(t), orphan, client.CreateOptions{})
	require.NoError(t, err)

	rs := createRS(t, cl, newReplicaSet(ns, "web", "web", 3))
	requireConverged(t, cl, ns, "web", "app=web", 3)

	stray, err := client.For[*api.Pod](cl).Namespace(ns).Get(clustertest.Context(t), "stray", client.GetOptions{})
	require.NoError(t, err, "the orphan counts towards the 3 instead of being replaced")
	ref := controllerRefOf(stray)
	require.NotNil(t, ref, "the orphan was adopted")
	assert.Equal(t, rs.UID, ref.UID)
	assert.Equal(t, "ReplicaSet", ref.Kind)
	require.NotNil(t, ref.BlockOwnerDeletion)
	assert.True(t, *ref.BlockOwnerDeletion)
}

func TestRelabeledPodIsReleasedAndReplaced(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	cl := testCluster.Client
	createRS(t, cl, newReplicaSet(ns, "web", "web", 3))
	requireConverged(t, cl, ns, "web", "app=web", 3)

	victim := listPods(t, cl, ns, "app=web")[0].Name
	_, err := client.For[*api.Pod](cl).Namespace(ns).Patch(clustertest.Context(t), victim, client.MergePatchType,
		[]byte(`{"metadata":{"labels":{"app":"debug"}}}`), client.PatchOptions{})
	require.NoError(t, err)

	require.Eventually(t, func() bool {
		p, err := client.For[*api.Pod](cl).Namespace(ns).Get(clustertest.Context(t), victim, client.GetOptions{})
		return err == nil && len(p.OwnerReferences) == 0
	}, waitFor, tick, "the relabeled pod loses its ownerReference")
	requireConverged(t, cl, ns, "web", "app=web", 3)
	assert.Len(t, listPods(t, cl, ns, ""), 4, "the released pod stays, next to 3 owned ones")
	for _, p := range listPods(t, cl, ns, "app=web") {
		assert.NotEqual(t, victim, p.Name)
	}
}

func TestEventsReportCreatesAndDeletes(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	cl := testCluster.Client
	createRS(t, cl, newReplicaSet(ns, "web", "web", 1))
	requireConverged(t, cl, ns, "web", "app=web", 1)
	pod := listPods(t, cl, ns, "app=web")[0].Name

	events := func() []*api.Event {
		l, err := client.For[*api.Event](cl).Namespace(ns).List(clustertest.Context(t), client.ListOptions{FieldSelector: "involvedObject.name=web"})
		require.NoError(t, err)
		return l.Items
	}
	has := func(reason, message string) bool {
		for _, e := range events() {
			if e.Reason == reason && e.Message == message {
				return e.Type == api.EventTypeNormal && e.InvolvedObject.Kind == "ReplicaSet"
			}
		}
		return false
	}
	require.Eventually(t, func() bool { return has("SuccessfulCreate", "Created pod: "+pod) }, waitFor, tick)

	scaleTo(t, cl, ns, "web", 0)
	requireConverged(t, cl, ns, "web", "app=web", 0)
	require.Eventually(t, func() bool { return has("SuccessfulDelete", "Deleted pod: "+pod) }, waitFor, tick)
}

func TestStatusCountsReadyAndAvailablePods(t *testing.T) {
	const minReady = 3
	ns := clustertest.Namespace(t, testCluster)
	cl := testCluster.Client
	rs := newReplicaSet(ns, "web", "web", 3)
	rs.Spec.MinReadySeconds = minReady
	createRS(t, cl, rs)
	requireConverged(t, cl, ns, "web", "app=web", 3)
	cur := getRS(t, cl, ns, "web")
	assert.Equal(t, int32(3), cur.Status.FullyLabeledReplicas)
	assert.Zero(t, cur.Status.ReadyReplicas)

	readySince := time.Now()
	for _, p := range listPods(t, cl, ns, "app=web") {
		markReady(t, cl, p, readySince)
	}
	require.Eventually(t, func() bool { return getRS(t, cl, ns, "web").Status.ReadyReplicas == 3 }, waitFor, tick)
	if seen := getRS(t, cl, ns, "web"); time.Since(readySince) < (minReady-1)*time.Second {
		// The status read was computed before the pods could have been
		// ready for minReadySeconds.
		assert.Less(t, seen.Status.AvailableReplicas, int32(3), "available only after minReadySeconds")
	}
	require.Eventually(t, func() bool { return getRS(t, cl, ns, "web").Status.AvailableReplicas == 3 }, waitFor, tick,
		"the controller comes back after minReadySeconds by itself")

	scaleTo(t, cl, ns, "web", 4)
	require.Eventually(t, func() bool {
		rs := getRS(t, cl, ns, "web")
		return rs.Status.ObservedGeneration == rs.Generation && rs.Status.Replicas == 4
	}, waitFor, tick, "observedGeneration follows generation")
	after := getRS(t, cl, ns, "web")
	assert.Equal(t, int32(3), after.Status.ReadyReplicas, "the new pod is not ready")
	assert.Equal(t, int32(4), after.Status.FullyLabeledReplicas)
}
