package deployment_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/cluster/clustertest"
	"kubeloop/controllers/deployment"
)

// rollbackTo does what `kubectl rollout undo --to-revision` does: copy the
// template of the ReplicaSet with that revision, less its pod-template-hash
// label, into the Deployment.
func rollbackTo(t *testing.T, ns, name, revision string) {
	t.Helper()
	var target *api.ReplicaSet
	for _, rs := range listReplicaSets(t, ns) {
		if rs.Annotations[deployment.RevisionAnnotation] == revision {
			target = rs
		}
	}
	require.NotNil(t, target, "no ReplicaSet has revision %s", revision)
	updateDeployment(t, ns, name, func(d *api.Deployment) {
		d.Spec.Template = *target.Spec.Template.DeepCopy()
		delete(d.Spec.Template.Labels, deployment.DefaultDeploymentUniqueLabelKey)
	})
}

func TestRollbackMakesTheOldReplicaSetNewWithTheNextRevision(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	createDeployment(t, newDeployment(ns, "web", 3, "nginx:1"))
	v1 := newReplicaSetOf(t, waitComplete(t, ns, "web"))
	require.NotNil(t, v1)
	setImage(t, ns, "web", "nginx:2")
	v2 := newReplicaSetOf(t, waitComplete(t, ns, "web"))
	require.NotNil(t, v2)
	require.NotEqual(t, v1.Name, v2.Name)

	rollbackTo(t, ns, "web", "1")
	d := waitComplete(t, ns, "web")

	rss := listReplicaSets(t, ns)
	require.Len(t, rss, 2, "no third ReplicaSet: the first one is re-used")
	back := getReplicaSet(t, ns, v1.Name)
	assert.Equal(t, int32(3), *back.Spec.Replicas)
	assert.Equal(t, "3", back.Annotations[deployment.RevisionAnnotation], "the next revision")
	assert.Equal(t, "1", back.Annotations[deployment.RevisionHistoryAnnotation], "the revision it had")
	assert.Equal(t, "3", d.Annotations[deployment.RevisionAnnotation])
	assert.Equal(t, int32(0), *getReplicaSet(t, ns, v2.Name).Spec.Replicas)
	for _, p := range listPods(t, ns, "app=web") {
		assert.Equal(t, "nginx:1", p.Spec.Containers[0].Image)
		assert.Equal(t, v1.Labels[deployment.DefaultDeploymentUniqueLabelKey], p.Labels[deployment.DefaultDeploymentUniqueLabelKey])
	}
	assertStatusComplete(t, d, v1.Name)

	// And forward again: the second ReplicaSet takes revision 4.
	rollbackTo(t, ns, "web", "2")
	d = waitComplete(t, ns, "web")
	again := getReplicaSet(t, ns, v2.Name)
	assert.Equal(t, "4", again.Annotations[deployment.RevisionAnnotation])
	assert.Equal(t, "2", again.Annotations[deployment.RevisionHistoryAnnotation])
	assert.Equal(t, "4", d.Annotations[deployment.RevisionAnnotation])
}

func TestRevisionHistoryLimitDeletesTheOldestEmptyReplicaSets(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	d := newDeployment(ns, "web", 2, "nginx:1")
	d.Spec.RevisionHistoryLimit = int32p(2)
	createDeployment(t, d)
	waitComplete(t, ns, "web")
	for i := 2; i <= 5; i++ {
		setImage(t, ns, "web", fmt.Sprintf("nginx:%d", i))
		waitComplete(t, ns, "web")
	}
	// The cleanup runs once the last rollout is complete, on the sync
	// after it.
	var revisions []string
	require.Eventually(t, func() bool {
		revisions = nil
		for _, rs := range listReplicaSets(t, ns) {
			revisions = append(revisions, rs.Annotations[deployment.RevisionAnnotation])
		}
		return len(revisions) == 3
	}, waitFor, tick, "want the new ReplicaSet and 2 old ones")
	assert.ElementsMatch(t, []string{"3", "4", "5"}, revisions, "the oldest revisions went")

	// Limit 0 keeps no old ReplicaSet at all.
	updateDeployment(t, ns, "web", func(d *api.Deployment) { d.Spec.RevisionHistoryLimit = int32p(0) })
	require.Eventually(t, func() bool { return len(listReplicaSets(t, ns)) == 1 }, waitFor, tick)
	assert.Equal(t, "5", listReplicaSets(t, ns)[0].Annotations[deployment.RevisionAnnotation])
}
