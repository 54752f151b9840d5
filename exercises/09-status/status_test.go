//go:build exercise || solution

package status

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

var ctx = context.Background()

func deployments(ns string) *client.Resource[*api.Deployment] {
	return client.For[*api.Deployment](testCluster.Client).Namespace(ns)
}

func pods(ns string) *client.Resource[*api.Pod] {
	return client.For[*api.Pod](testCluster.Client).Namespace(ns)
}

func createDeployment(t *testing.T, ns, name string, replicas int32) {
	t.Helper()
	labels := map[string]string{"app": name}
	_, err := deployments(ns).Create(ctx, &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.DeploymentSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1"}}},
			},
		},
	}, client.CreateOptions{})
	require.NoError(t, err)
}

func getDeployment(t *testing.T, ns, name string) *api.Deployment {
	t.Helper()
	d, err := deployments(ns).Get(ctx, name, client.GetOptions{})
	require.NoError(t, err)
	return d
}

// editDeployment changes the Deployment as a user would, retrying if the
// controller's status write came in between.
func editDeployment(t *testing.T, ns, name string, change func(d *api.Deployment)) *api.Deployment {
	t.Helper()
	var out *api.Deployment
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		d, err := deployments(ns).Get(ctx, name, client.GetOptions{})
		if err != nil {
			return err
		}
		change(d)
		out, err = deployments(ns).Update(ctx, d, client.UpdateOptions{})
		return err
	}))
	return out
}

// createPod makes a pod the Deployment "app" selects (or not, for another
// app), ready or not, as a kubelet would report it.
func createPod(t *testing.T, ns, name, app string, ready bool) {
	t.Helper()
	_, err := pods(ns).Create(ctx, &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"app": app}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1"}}},
	}, client.CreateOptions{})
	require.NoError(t, err)
	setReady(t, ns, name, ready)
}

func setReady(t *testing.T, ns, name string, ready bool) {
	t.Helper()
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		p, err := pods(ns).Get(ctx, name, client.GetOptions{})
		if err != nil {
			return err
		}
		status := api.ConditionFalse
		if ready {
			status = api.ConditionTrue
		}
		p.Status.Phase = api.PodRunning
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: status}}
		_, err = pods(ns).UpdateStatus(ctx, p, client.UpdateOptions{})
		return err
	}))
}

// settle makes sure the reconciler has seen the world as it is now,
// including its own last write: it changes a label of the Deployment (no
// new generation, nothing to report) and waits for a sync that started
// from that version or a later one.
func settle(t *testing.T, ns, name string) {
	t.Helper()
	poked := editDeployment(t, ns, name, func(d *api.Deployment) {
		if d.Labels == nil {
			d.Labels = map[string]string{}
		}
		n, _ := strconv.Atoi(d.Labels["poke"])
		d.Labels["poke"] = strconv.Itoa(n + 1)
	})
	rv, _ := strconv.ParseInt(poked.ResourceVersion, 10, 64)
	key := ns + "/" + name
	waitUntil(t, ns, "a sync read the Deployment at resourceVersion "+poked.ResourceVersion, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.seen[key] >= rv
	})
}

// waitStatus waits until the stored status satisfies cond.
func waitStatus(t *testing.T, ns, name, what string, cond func(s api.DeploymentStatus, d *api.Deployment) bool) *api.Deployment {
	t.Helper()
	var d *api.Deployment
	waitUntil(t, ns, what, func() bool {
		d = getDeployment(t, ns, name)
		return cond(d.Status, d)
	})
	return d
}

func available(s api.DeploymentStatus) *api.DeploymentCondition {
	return getCondition(s, api.DeploymentAvailable)
}

func counts(s api.DeploymentStatus) string {
	return fmt.Sprintf("replicas=%d ready=%d available=%d unavailable=%d", s.Replicas, s.ReadyReplicas, s.AvailableReplicas, s.UnavailableReplicas)
}

func TestStatusCountsThePodsAndObservesTheGeneration(t *testing.T) {
	ns := newNamespace(t)
	createDeployment(t, ns, "web", 3)
	createPod(t, ns, "web-0", "web", true)
	createPod(t, ns, "web-1", "web", false)
	createPod(t, ns, "web-2", "web", false)
	createPod(t, ns, "db-0", "db", true) // another app's pod

	d := waitStatus(t, ns, "web", "the status counts 3 pods, 1 of them ready", func(s api.DeploymentStatus, d *api.Deployment) bool {
		return counts(s) == "replicas=3 ready=1 available=1 unavailable=2"
	})
	assert.Equal(t, d.Generation, d.Status.ObservedGeneration, "observedGeneration says which spec the status describes")
	c := available(d.Status)
	require.NotNil(t, c, "the status has an Available condition")
	assert.Equal(t, api.ConditionFalse, c.Status)
	assert.Equal(t, MinimumReplicasUnavailable, c.Reason)
	assert.Equal(t, UnavailableMessage, c.Message)
	assert.False(t, c.LastTransitionTime.IsZero(), "lastTransitionTime is set")
	assert.Len(t, d.Status.Conditions, 1)

	setReady(t, ns, "web-1", true)
	setReady(t, ns, "web-2", true)
	d = waitStatus(t, ns, "web", "all 3 pods are ready and Available is True", func(s api.DeploymentStatus, _ *api.Deployment) bool {
		c := available(s)
		return counts(s) == "replicas=3 ready=3 available=3 unavailable=0" && c != nil && c.Status == api.ConditionTrue
	})
	c = available(d.Status)
	assert.Equal(t, MinimumReplicasAvailable, c.Reason)
	assert.Equal(t, AvailableMessage, c.Message)
}

// Nothing changed, so nothing is written: not after the reconciler's own
// write comes back as an event, not after changes that do not touch the
// status (a label of the Deployment, another app's pod, a pod's label).
func TestTheSteadyStateWritesNothing(t *testing.T) {
	ns := newNamespace(t)
	createDeployment(t, ns, "web", 2)
	createPod(t, ns, "web-0", "web", true)
	createPod(t, ns, "web-1", "web", true)
	createPod(t, ns, "db-0", "db", true)
	waitStatus(t, ns, "web", "the status shows 2 ready pods", func(s api.DeploymentStatus, _ *api.Deployment) bool {
		return counts(s) == "replicas=2 ready=2 available=2 unavailable=0"
	})
	settle(t, ns, "web")
	before := h.writesIn(ns)
	status := getDeployment(t, ns, "web").Status

	settle(t, ns, "web")
	setReady(t, ns, "db-0", false)
	p, err := pods(ns).Get(ctx, "web-0", client.GetOptions{})
	require.NoError(t, err)
	p.Labels["tier"] = "frontend"
	_, err = pods(ns).Update(ctx, p, client.UpdateOptions{})
	require.NoError(t, err)
	settle(t, ns, "web")
	settle(t, ns, "web")

	assert.Equal(t, before, h.writesIn(ns), "status writes while nothing in the status changed")
	assert.True(t, api.SemanticEqual(&status, &getDeployment(t, ns, "web").Status), "the status, its condition's times too, did not change")
}

// Each change of the status is one write, no more.
func TestEveryChangeIsWrittenOnce(t *testing.T) {
	ns := newNamespace(t)
	createDeployment(t, ns, "web", 2)
	waitStatus(t, ns, "web", "the status shows no pods", func(s api.DeploymentStatus, d *api.Deployment) bool {
		return counts(s) == "replicas=0 ready=0 available=0 unavailable=2"
	})
	settle(t, ns, "web")
	base := h.writesIn(ns)

	steps := []struct {
		do   func()
		want string
	}{
		{func() { createPod(t, ns, "a", "web", false) }, "replicas=1 ready=0 available=0 unavailable=2"},
		{func() { setReady(t, ns, "a", true) }, "replicas=1 ready=1 available=1 unavailable=1"},
		{func() { createPod(t, ns, "b", "web", false) }, "replicas=2 ready=1 available=1 unavailable=1"},
		{func() { setReady(t, ns, "b", true) }, "replicas=2 ready=2 available=2 unavailable=0"},
		{func() { require.NoError(t, pods(ns).Delete(ctx, "a", api.DeleteOptions{})) }, "replicas=1 ready=1 available=1 unavailable=1"},
	}
	for i, step := range steps {
		step.do()
		waitStatus(t, ns, "web", "the status shows "+step.want, func(s api.DeploymentStatus, _ *api.Deployment) bool { return counts(s) == step.want })
		settle(t, ns, "web")
		assert.Equal(t, base+i+1, h.writesIn(ns), "after change %d (%s): one status write per change", i+1, step.want)
	}
}

// A condition's lastTransitionTime says when its status last changed, and
// its lastUpdateTime when it was last written: neither moves while the
// condition stays as it is. (The reconciler's clock moves one second per
// reading: stamping every pass would change the status on every pass.)
func TestAvailableKeepsItsTimesUntilItChanges(t *testing.T) {
	ns := newNamespace(t)
	createDeployment(t, ns, "web", 1)
	createPod(t, ns, "web-0", "web", true)
	d := waitStatus(t, ns, "web", "Available is True", func(s api.DeploymentStatus, _ *api.Deployment) bool {
		c := available(s)
		return c != nil && c.Status == api.ConditionTrue
	})
	first := *available(d.Status)
	for range 3 {
		settle(t, ns, "web")
	}
	assert.Equal(t, first, *available(getDeployment(t, ns, "web").Status), "an unchanged condition keeps its times")

	setReady(t, ns, "web-0", false)
	d = waitStatus(t, ns, "web", "Available is False", func(s api.DeploymentStatus, _ *api.Deployment) bool {
		c := available(s)
		return c != nil && c.Status == api.ConditionFalse
	})
	flipped := *available(d.Status)
	assert.True(t, flipped.LastTransitionTime.After(first.LastTransitionTime.Time), "a change of status moves lastTransitionTime")
	for range 2 {
		settle(t, ns, "web")
	}
	assert.Equal(t, flipped, *available(getDeployment(t, ns, "web").Status))
	assert.LessOrEqual(t, h.writesIn(ns), 4, "two statuses to report (and what the pod's creation showed on the way)")
}

// A new spec is something to report even when the pods are the same: the
// status must say it describes the new generation.
func TestObservedGenerationFollowsTheSpecAlone(t *testing.T) {
	ns := newNamespace(t)
	createDeployment(t, ns, "web", 2)
	createPod(t, ns, "web-0", "web", true)
	createPod(t, ns, "web-1", "web", true)
	d := waitStatus(t, ns, "web", "the status shows 2 ready pods", func(s api.DeploymentStatus, d *api.Deployment) bool {
		return counts(s) == "replicas=2 ready=2 available=2 unavailable=0"
	})
	require.Equal(t, d.Generation, d.Status.ObservedGeneration, "the status describes generation %d", d.Generation)
	settle(t, ns, "web")
	base := h.writesIn(ns)

	// A new image: a new generation, and nothing else to report. Once a
	// sync has read the new version (settle), its write is done.
	d = editDeployment(t, ns, "web", func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:2" })
	settle(t, ns, "web")
	got := getDeployment(t, ns, "web")
	assert.Equal(t, d.Generation, got.Status.ObservedGeneration, "the status must say it describes the new generation")
	assert.Equal(t, base+1, h.writesIn(ns), "one write for the new generation")

	// More replicas: a new generation and new counts.
	d = editDeployment(t, ns, "web", func(d *api.Deployment) { three := int32(3); d.Spec.Replicas = &three })
	settle(t, ns, "web")
	got = getDeployment(t, ns, "web")
	assert.Equal(t, d.Generation, got.Status.ObservedGeneration)
	assert.Equal(t, "replicas=2 ready=2 available=2 unavailable=1", counts(got.Status))
	if c := available(got.Status); assert.NotNil(t, c) {
		assert.Equal(t, api.ConditionFalse, c.Status, "2 of 3 available")
	}
	assert.Equal(t, base+2, h.writesIn(ns))
}

// The harness compares the cached Deployment before and after every
// reconcile (newNamespace reports a change); this test gives it a status
// with a condition to scribble on.
func TestTheCacheIsNeverModified(t *testing.T) {
	ns := newNamespace(t)
	createDeployment(t, ns, "web", 1)
	createPod(t, ns, "web-0", "web", true)
	waitStatus(t, ns, "web", "Available is True", func(s api.DeploymentStatus, _ *api.Deployment) bool {
		c := available(s)
		return c != nil && c.Status == api.ConditionTrue
	})
	setReady(t, ns, "web-0", false)
	waitStatus(t, ns, "web", "Available is False", func(s api.DeploymentStatus, _ *api.Deployment) bool {
		c := available(s)
		return c != nil && c.Status == api.ConditionFalse
	})
	settle(t, ns, "web")
	assert.Empty(t, h.problemsIn(ns))
}
