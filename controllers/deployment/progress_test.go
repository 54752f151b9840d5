package deployment_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/cluster/clustertest"
	"kubeloop/controllers/deployment"
)

// TestRolloutThatMakesNoProgressExceedsItsDeadline rolls out pods that
// crash at once (the simulated kubelet's kubeloop.dev/exit-code), so none
// ever becomes ready: after progressDeadlineSeconds the Progressing
// condition turns False with ProgressDeadlineExceeded, with nothing but
// the clock to wake the controller. A good template then recovers.
func TestRolloutThatMakesNoProgressExceedsItsDeadline(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	d := newDeployment(ns, "web", 2, "nginx:1")
	d.Spec.ProgressDeadlineSeconds = int32p(2)
	createDeployment(t, d)
	waitComplete(t, ns, "web")

	updateDeployment(t, ns, "web", func(d *api.Deployment) {
		d.Spec.Template.Spec.Containers[0].Image = "nginx:broken"
		d.Spec.Template.Annotations = map[string]string{"kubeloop.dev/exit-code": "1"}
	})
	var cur *api.Deployment
	require.Eventually(t, func() bool {
		got, err := tryGetDeployment(ns, "web")
		if err != nil {
			return false
		}
		cur = got
		c := condition(cur, deployment.DeploymentProgressing)
		// On a loaded machine the deadline may pass before the surge pod
		// even exists; its appearance is progress, and the deadline is
		// then measured from there.
		return c != nil && c.Reason == deployment.TimedOutReason && cur.Status.UpdatedReplicas == 1
	}, waitFor, tick, "no ProgressDeadlineExceeded")
	broken := newReplicaSetOf(t, cur)
	require.NotNil(t, broken)
	c := condition(cur, deployment.DeploymentProgressing)
	assert.Equal(t, api.ConditionFalse, c.Status)
	assert.Equal(t, fmt.Sprintf("ReplicaSet %q has timed out progressing.", broken.Name), c.Message)
	// maxUnavailable is 25% of 2, rounded down: 0. The old pods stay.
	avail := condition(cur, deployment.DeploymentAvailable)
	require.NotNil(t, avail)
	assert.Equal(t, api.ConditionTrue, avail.Status)
	assert.Equal(t, int32(2), cur.Status.AvailableReplicas)
	assert.Equal(t, int32(1), cur.Status.UnavailableReplicas, "one surge pod, never ready")
	assert.Equal(t, int32(1), cur.Status.UpdatedReplicas)

	// The failure is final until the template changes.
	updateDeployment(t, ns, "web", func(d *api.Deployment) {
		d.Spec.Template.Spec.Containers[0].Image = "nginx:2"
		d.Spec.Template.Annotations = nil
	})
	d = waitComplete(t, ns, "web")
	good := newReplicaSetOf(t, d)
	require.NotNil(t, good)
	assertStatusComplete(t, d, good.Name)
	assert.Equal(t, int32(0), *getReplicaSet(t, ns, broken.Name).Spec.Replicas)
}

// TestAvailableTurnsFalseWhenPodsAreNotReady creates a Deployment whose
// pods never become ready.
func TestAvailableTurnsFalseWhenPodsAreNotReady(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	d := newDeployment(ns, "web", 4, "nginx:broken")
	d.Spec.Template.Annotations = map[string]string{"kubeloop.dev/exit-code": "1"}
	createDeployment(t, d)
	// Every pod has run, crashed and been restarted at least once.
	require.Eventually(t, func() bool {
		pods := listPods(t, ns, "app=web")
		for _, p := range pods {
			if len(p.Status.ContainerStatuses) == 0 || p.Status.ContainerStatuses[0].RestartCount < 1 {
				return false
			}
		}
		return len(pods) == 4
	}, waitFor, tick)
	var cur *api.Deployment
	require.Eventually(t, func() bool {
		got, err := tryGetDeployment(ns, "web")
		if err != nil {
			return false
		}
		cur = got
		c := condition(cur, deployment.DeploymentAvailable)
		return c != nil && cur.Status.Replicas == 4 && cur.Status.ObservedGeneration == cur.Generation
	}, waitFor, tick)
	c := condition(cur, deployment.DeploymentAvailable)
	assert.Equal(t, api.ConditionFalse, c.Status)
	assert.Equal(t, "MinimumReplicasUnavailable", c.Reason)
	assert.Equal(t, "Deployment does not have minimum availability.", c.Message)
	assert.Equal(t, int32(4), cur.Status.UnavailableReplicas)
	assert.Zero(t, cur.Status.AvailableReplicas)
}

// TestMinReadySecondsHoldsTheRolloutUntilPodsAreAvailable: a pod counts as
// available only minReadySeconds after it became ready, and a rolling
// update with no unavailability to spare waits for that at every step.
func TestMinReadySecondsHoldsTheRolloutUntilPodsAreAvailable(t *testing.T) {
	const minReady = 2
	ns := clustertest.Namespace(t, testCluster)
	d := newDeployment(ns, "web", 2, "nginx:1")
	d.Spec.MinReadySeconds = minReady
	d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: intOrString(api.FromInt32(1)), MaxUnavailable: intOrString(api.FromInt32(0))}
	createDeployment(t, d)
	waitComplete(t, ns, "web")

	start := time.Now()
	setImage(t, ns, "web", "nginx:2")
	d = waitComplete(t, ns, "web")
	// Two steps (one surge pod at a time), each waiting minReadySeconds
	// for its new pod.
	assert.GreaterOrEqual(t, time.Since(start), 2*minReady*time.Second)
	newRS := newReplicaSetOf(t, d)
	require.NotNil(t, newRS)
	assert.Equal(t, int32(minReady), newRS.Spec.MinReadySeconds, "the ReplicaSet counts availability the same way")

	updateDeployment(t, ns, "web", func(d *api.Deployment) { d.Spec.MinReadySeconds = 0 })
	require.Eventually(t, func() bool { return getReplicaSet(t, ns, newRS.Name).Spec.MinReadySeconds == 0 }, waitFor, tick,
		"a new minReadySeconds reaches the current ReplicaSet")
}

func intOrString(v api.IntOrString) *api.IntOrString { return &v }
