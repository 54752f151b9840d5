package deployment_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
	"kubeloop/controllers/deployment"
)

func createReplicaSet(t *testing.T, rs *api.ReplicaSet) *api.ReplicaSet {
	t.Helper()
	out, err := client.For[*api.ReplicaSet](testCluster.Client).Namespace(rs.Namespace).Create(clustertest.Context(t), rs, client.CreateOptions{})
	require.NoError(t, err)
	return out
}

// pausedTemplate creates a paused Deployment (which creates no ReplicaSet)
// and returns it as the server stored it, defaults included: the template
// whose hash the controller will compute.
func pausedDeployment(t *testing.T, ns string, replicas int32) *api.Deployment {
	t.Helper()
	d := newDeployment(ns, "web", replicas, "nginx:1")
	d.Spec.Paused = true
	createDeployment(t, d)
	return waitObserved(t, ns, "web")
}

// replicaSetFor is a ReplicaSet as the controller would make it for d's
// template, without an owner.
func replicaSetFor(d *api.Deployment, name, hash string, replicas int32) *api.ReplicaSet {
	tpl := *d.Spec.Template.DeepCopy()
	tpl.Labels = map[string]string{"app": "web", deployment.DefaultDeploymentUniqueLabelKey: hash}
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: d.Namespace, Labels: tpl.Labels},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: tpl.Labels},
			Template: tpl,
		},
	}
}

func TestMatchingOrphanReplicaSetIsAdoptedAsTheNewOne(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	d := pausedDeployment(t, ns, 3)
	orphan := createReplicaSet(t, replicaSetFor(d, "web-adopted", "whatever", 3))

	updateDeployment(t, ns, "web", func(d *api.Deployment) { d.Spec.Paused = false })
	d = waitComplete(t, ns, "web")
	rss := listReplicaSets(t, ns)
	require.Len(t, rss, 1, "the orphan is the new ReplicaSet; no other is created")
	got := rss[0]
	assert.Equal(t, orphan.UID, got.UID)
	ref := getControllerRef(got.OwnerReferences)
	require.NotNil(t, ref, "adopted")
	assert.Equal(t, d.UID, ref.UID)
	assert.Equal(t, "1", got.Annotations[deployment.RevisionAnnotation])
	c := condition(d, deployment.DeploymentProgressing)
	require.NotNil(t, c)
	assert.Equal(t, "NewReplicaSetAvailable", c.Reason)
	assertStatusComplete(t, d, got.Name)
}

func TestReplicaSetThatNoLongerMatchesIsReleased(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	createDeployment(t, newDeployment(ns, "web", 2, "nginx:1"))
	first := newReplicaSetOf(t, waitComplete(t, ns, "web"))
	require.NotNil(t, first)

	_, err := client.For[*api.ReplicaSet](testCluster.Client).Namespace(ns).Patch(clustertest.Context(t), first.Name,
		client.MergePatchType, []byte(`{"metadata":{"labels":{"app":"debug"}}}`), client.PatchOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		return getControllerRef(getReplicaSet(t, ns, first.Name).OwnerReferences) == nil
	}, waitFor, tick, "the relabeled ReplicaSet loses its controller reference")

	// The Deployment has no ReplicaSet any more: it makes a new one, of the
	// same template, so under another name (collisionCount goes up).
	require.Eventually(t, func() bool { return len(listReplicaSets(t, ns)) == 2 }, waitFor, tick)
	d := waitComplete(t, ns, "web")
	rss := listReplicaSets(t, ns)
	var second *api.ReplicaSet
	for _, rs := range rss {
		if rs.Name != first.Name {
			second = rs
		}
	}
	require.NotNil(t, second)
	assert.Equal(t, d.UID, getControllerRef(second.OwnerReferences).UID)
	require.NotNil(t, d.Status.CollisionCount)
	assert.Equal(t, int32(1), *d.Status.CollisionCount)
	assert.Equal(t, "web-"+deployment.ComputeHash(&d.Spec.Template, d.Status.CollisionCount), second.Name)
}

func TestHashCollisionRaisesCollisionCount(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	d := pausedDeployment(t, ns, 1)
	hash := deployment.ComputeHash(&d.Spec.Template, nil)
	// A ReplicaSet that has the name the controller wants, but another
	// template and labels the Deployment does not select.
	squatter := replicaSetFor(d, "web-"+hash, hash, 0)
	squatter.Labels = map[string]string{"app": "other"}
	squatter.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "other"}}
	squatter.Spec.Template.Labels = map[string]string{"app": "other"}
	squatter.Spec.Template.Spec.Containers[0].Image = "busybox"
	createReplicaSet(t, squatter)

	updateDeployment(t, ns, "web", func(d *api.Deployment) { d.Spec.Paused = false })
	d = waitComplete(t, ns, "web")
	require.NotNil(t, d.Status.CollisionCount)
	assert.Equal(t, int32(1), *d.Status.CollisionCount)
	one := int32(1)
	newRS := getReplicaSet(t, ns, "web-"+deployment.ComputeHash(&d.Spec.Template, &one))
	assert.Equal(t, d.UID, getControllerRef(newRS.OwnerReferences).UID)
	assert.Nil(t, getControllerRef(getReplicaSet(t, ns, "web-"+hash).OwnerReferences), "the squatter is left alone")
}
