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

// TestRecreateRemovesEveryOldPodBeforeCreatingNewOnes checks, on every pod
// event, that pods of two templates never exist at once, not even an old
// one that is still terminating.
func TestRecreateRemovesEveryOldPodBeforeCreatingNewOnes(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	d := newDeployment(ns, "web", 6, "nginx:1")
	d.Spec.Strategy = api.DeploymentStrategy{Type: deployment.RecreateDeploymentStrategyType}
	createDeployment(t, d)
	first := waitComplete(t, ns, "web")

	w := watchPods(t, ns)
	var mixed []string
	w.onEvent = func(w *podWatch, typ api.EventType, p *api.Pod) {
		hashes := map[string]int{}
		for _, p := range w.pods {
			hashes[p.Labels[deployment.DefaultDeploymentUniqueLabelKey]]++
		}
		if len(hashes) > 1 {
			mixed = append(mixed, fmt.Sprintf("%v at %s %s", hashes, typ, p.Name))
		}
	}
	setImage(t, ns, "web", "nginx:2")
	d = waitComplete(t, ns, "web")
	_, _, events, _, _ := w.result()
	w.mu.Lock()
	defer w.mu.Unlock()
	assert.Empty(t, mixed, "old and new pods side by side")
	assert.Greater(t, events, 12, "the watch saw the old pods go and the new ones come")

	newRS := newReplicaSetOf(t, d)
	require.NotNil(t, newRS)
	assert.Equal(t, int32(6), *newRS.Spec.Replicas)
	assert.Equal(t, "6", newRS.Annotations[deployment.DesiredReplicasAnnotation])
	assert.Equal(t, "6", newRS.Annotations[deployment.MaxReplicasAnnotation], "no surge with Recreate")
	for _, p := range w.pods {
		assert.Equal(t, newRS.Labels[deployment.DefaultDeploymentUniqueLabelKey], p.Labels[deployment.DefaultDeploymentUniqueLabelKey])
	}
	assertStatusComplete(t, d, newRS.Name)
	msgs := eventMessages(t, ns, "web")
	oldRS := newReplicaSetOf(t, first)
	require.NotNil(t, oldRS)
	assert.Contains(t, msgs, fmt.Sprintf("ScalingReplicaSet: Scaled down replica set %s to 0 from 6", oldRS.Name))
	assert.Contains(t, msgs, fmt.Sprintf("ScalingReplicaSet: Scaled up replica set %s to 6 from 0", newRS.Name))
}
