package full

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
)

// runningReplicaSet creates a ReplicaSet of n and waits for n Ready pods.
func runningReplicaSet(t *testing.T, c *cluster.Cluster, ns, name string, n int32) *api.ReplicaSet {
	t.Helper()
	rs := createReplicaSet(t, c, replicaSet(ns, name, n, "10m", "16Mi"))
	require.Eventually(t, func() bool {
		return sum(readyPodsByNode(listPods(t, c, ns, "app="+name))) == int(n)
	}, waitFor, tick, "%d pods of %s Running and Ready", n, name)
	return rs
}

// TestDeletingAReplicaSetPropagatesAsKubectlAsks deletes running
// ReplicaSets of 10 with the two policies kubectl delete --cascade offers
// beside the default background: foreground (the ReplicaSet goes last) and
// orphan (the pods stay, without their owner reference).
func TestDeletingAReplicaSetPropagatesAsKubectlAsks(t *testing.T) {
	c := startCluster(t, Options{Nodes: 3, Kubelet: fastKubelet()})

	t.Run("foreground", func(t *testing.T) {
		ns := newNamespace(t, c)
		runningReplicaSet(t, c, ns, "fg", 10)
		for _, p := range listPods(t, c, ns, "app=fg") {
			require.Len(t, p.OwnerReferences, 1)
			require.NotNil(t, p.OwnerReferences[0].BlockOwnerDeletion)
			require.True(t, *p.OwnerReferences[0].BlockOwnerDeletion, "the controller reference blocks its owner's foreground deletion")
		}
		fg := api.DeletePropagationForeground
		require.NoError(t, client.For[*api.ReplicaSet](c.Client).Namespace(ns).Delete(testCtx(t), "fg", api.DeleteOptions{PropagationPolicy: &fg}))

		rs := getReplicaSet(t, c, ns, "fg")
		require.NotNil(t, rs, "the owner waits for its dependents")
		assert.NotNil(t, rs.DeletionTimestamp)
		assert.Contains(t, rs.Finalizers, api.FinalizerDeleteDependents)

		// The ReplicaSet may disappear only once no pod is left: read it
		// first, then the pods, so a pod seen after the owner is gone is
		// a real violation.
		require.Eventually(t, func() bool {
			gone := getReplicaSet(t, c, ns, "fg") == nil
			pods := listPods(t, c, ns, "app=fg")
			if gone {
				require.Empty(t, pods, "foreground deletion removed the owner before its dependents")
			}
			return gone
		}, waitFor, tick, "the ReplicaSet goes after its pods")
	})

	t.Run("orphan", func(t *testing.T) {
		ns := newNamespace(t, c)
		rs := runningReplicaSet(t, c, ns, "orphan", 10)
		orphan := api.DeletePropagationOrphan
		require.NoError(t, client.For[*api.ReplicaSet](c.Client).Namespace(ns).Delete(testCtx(t), "orphan", api.DeleteOptions{PropagationPolicy: &orphan}))
		require.Eventually(t, func() bool {
			return getReplicaSet(t, c, ns, "orphan") == nil
		}, waitFor, tick, "the ReplicaSet goes once its pods are orphaned")

		pods := listPods(t, c, ns, "app=orphan")
		require.Len(t, pods, 10, "orphaned pods stay")
		for _, p := range pods {
			assert.Nil(t, p.DeletionTimestamp, "pod %s", p.Name)
			for _, ref := range p.OwnerReferences {
				assert.NotEqual(t, rs.UID, ref.UID, "pod %s still points at its deleted owner", p.Name)
			}
			assert.True(t, podReady(p), "pod %s keeps running", p.Name)
		}

		// A new ReplicaSet with the same selector adopts the orphans rather
		// than creating pods: they are still good.
		adopter := runningReplicaSet(t, c, ns, "orphan", 10)
		require.Len(t, listPods(t, c, ns, "app=orphan"), 10)
		require.Eventually(t, func() bool {
			for _, p := range listPods(t, c, ns, "app=orphan") {
				if len(p.OwnerReferences) != 1 || p.OwnerReferences[0].UID != adopter.UID {
					return false
				}
			}
			return true
		}, waitFor, tick, "the new ReplicaSet adopts the orphans")
		require.Len(t, listPods(t, c, ns, "app=orphan"), 10, "adopted, no surplus created")
		for _, p := range pods {
			assert.NotNil(t, findPod(listPods(t, c, ns, "app=orphan"), p.Name), "orphan %s was adopted, not replaced", p.Name)
		}
	})
}

func findPod(pods []*api.Pod, name string) *api.Pod {
	for _, p := range pods {
		if p.Name == name {
			return p
		}
	}
	return nil
}
