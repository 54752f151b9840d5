package replicaset

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/cluster/clustertest"
)

// Reading path, step 7 (docs/reading-path.md): the reconcile re-reads the
// world. A ReplicaSet with 3 pods is scaled to 5 through the scale
// subresource, as kubectl scale does; the watch event only wakes the
// controller, syncReplicaSet reads the ReplicaSet and its pods from the
// informer's cache, manageReplicas creates exactly the 2 missing pods
// (never more: expectations hold the next sync until the informer has seen
// them), and the status reports 5. Break in Controller.syncReplicaSet and
// Controller.manageReplicas (controllers/replicaset/sync.go).
func TestReadingPathStep7ScaleTo5CreatesTwoPods(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	cl := testCluster.Client
	tracker := trackPods(t, cl, ns)
	createRS(t, cl, newReplicaSet(ns, "web", "web", 3))
	requireConverged(t, cl, ns, "web", "app=web", 3)
	before := map[string]bool{}
	for _, p := range listPods(t, cl, ns, "app=web") {
		before[p.Name] = true
	}

	scaleTo(t, cl, ns, "web", 5)
	requireConverged(t, cl, ns, "web", "app=web", 5)
	created := 0
	for _, p := range listPods(t, cl, ns, "app=web") {
		if !before[p.Name] {
			created++
		}
	}
	assert.Equal(t, 2, created, "want 5, have 3: two creates")
	assert.Equal(t, 5, tracker.Max(), "never a sixth pod")
	rs := getRS(t, cl, ns, "web")
	require.NotNil(t, rs.Spec.Replicas)
	assert.Equal(t, int32(5), rs.Status.Replicas)
	assert.Equal(t, rs.Generation, rs.Status.ObservedGeneration, "the status says which spec it answers")
}
