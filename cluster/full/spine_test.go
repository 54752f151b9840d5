package full

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

// TestScaleToFiveRunsReadyPodsSpreadOverNodes walks the whole spine: a
// ReplicaSet of 5 becomes 5 pods created by the ReplicaSet controller,
// bound by the scheduler and run by three simulated kubelets; scaling down
// through the scale subresource and a background delete finish the story
// (the second through the garbage collector).
func TestScaleToFiveRunsReadyPodsSpreadOverNodes(t *testing.T) {
	c := startCluster(t, Options{Nodes: 3, Kubelet: fastKubelet()})
	ns := newNamespace(t, c)
	rs := createReplicaSet(t, c, replicaSet(ns, "web", 5, "100m", "64Mi"))

	var byNode map[string]int
	require.Eventually(t, func() bool {
		byNode = readyPodsByNode(listPods(t, c, ns, "app=web"))
		return sum(byNode) == 5
	}, waitFor, tick, "5 pods Running and Ready")
	require.Len(t, listPods(t, c, ns, "app=web"), 5, "no surplus pods")
	for i := 0; i < 3; i++ {
		assert.GreaterOrEqual(t, byNode[NodeName(i)], 1, "the scheduler spreads pods over %s (got %v)", NodeName(i), byNode)
	}
	for _, p := range listPods(t, c, ns, "app=web") {
		require.Len(t, p.OwnerReferences, 1)
		assert.Equal(t, rs.UID, p.OwnerReferences[0].UID)
		assert.NotEmpty(t, p.Status.PodIP)
		assert.NotEmpty(t, p.Status.HostIP)
		sc := podCondition(p, api.PodScheduled)
		require.NotNil(t, sc)
		assert.Equal(t, api.ConditionTrue, sc.Status)
		// The components cache pods without managedFields
		// (informers.TrimManagedFields); what they write back must not
		// lose the server's: the creator's entry and the kubelet's status.
		var subresources []string
		for _, e := range p.ManagedFields {
			subresources = append(subresources, e.Subresource)
		}
		assert.Contains(t, subresources, "", "the ReplicaSet controller's create is still tracked: %v", p.ManagedFields)
		assert.Contains(t, subresources, "status", "the kubelet's status writes are tracked: %v", p.ManagedFields)
	}

	require.Eventually(t, func() bool {
		got := getReplicaSet(t, c, ns, "web")
		return got.Status.Replicas == 5 && got.Status.ReadyReplicas == 5 && got.Status.AvailableReplicas == 5 &&
			got.Status.FullyLabeledReplicas == 5 && got.Status.ObservedGeneration == got.Generation
	}, waitFor, tick, "the ReplicaSet reports 5 ready and available replicas for its current generation")

	require.Eventually(t, func() bool {
		ev := eventsByReason(t, c, ns)
		return len(ev["SuccessfulCreate"]) >= 1 && distinct(ev["Scheduled"]) == 5 && distinct(ev["Started"]) == 5
	}, waitFor, tick, "SuccessfulCreate (ReplicaSet), Scheduled and Started (each pod) events")
	ev := eventsByReason(t, c, ns)
	assert.Contains(t, ev["SuccessfulCreate"], "ReplicaSet/web")

	rsClient := client.For[*api.ReplicaSet](c.Client).Namespace(ns)
	scale, err := rsClient.GetScale(testCtx(t), "web")
	require.NoError(t, err)
	require.Equal(t, int32(5), scale.Spec.Replicas)
	require.Equal(t, "app=web", scale.Status.Selector)
	scaleTo(t, c, ns, "web", 2)
	require.Eventually(t, func() bool {
		pods := listPods(t, c, ns, "app=web")
		got := getReplicaSet(t, c, ns, "web")
		return len(pods) == 2 && sum(readyPodsByNode(pods)) == 2 &&
			got.Status.Replicas == 2 && got.Status.ObservedGeneration == got.Generation
	}, waitFor, tick, "scaled down to exactly 2 pods, the others deleted by their kubelets")

	bg := api.DeletePropagationBackground
	require.NoError(t, rsClient.Delete(testCtx(t), "web", api.DeleteOptions{PropagationPolicy: &bg}))
	require.Eventually(t, func() bool {
		return getReplicaSet(t, c, ns, "web") == nil && len(listPods(t, c, ns, "app=web")) == 0
	}, waitFor, tick, "the garbage collector removes the pods of the deleted ReplicaSet")
}

func distinct(names []string) int {
	seen := map[string]bool{}
	for _, n := range names {
		seen[n] = true
	}
	return len(seen)
}
