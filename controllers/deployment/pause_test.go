package deployment_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
	"kubeloop/controllers/deployment"
)

// reasonLog records every Progressing reason a Deployment's status showed,
// through a watch, so that short-lived ones (DeploymentResumed) are seen.
type reasonLog struct {
	mu      sync.Mutex
	reasons []string
}

func watchProgressing(t *testing.T, ns, name string) *reasonLog {
	t.Helper()
	l := &reasonLog{}
	dc := deployments(testCluster.Client, ns)
	list, err := dc.List(clustertest.Context(t), client.ListOptions{FieldSelector: "metadata.name=" + name})
	require.NoError(t, err)
	rv := list.ResourceVersion
	clustertest.Go(t, func(ctx context.Context) {
		for ctx.Err() == nil {
			w, err := dc.Watch(ctx, client.ListOptions{ResourceVersion: rv, FieldSelector: "metadata.name=" + name})
			if err != nil {
				continue
			}
			for ev := range w.ResultChan() {
				d, ok := ev.Object.(*api.Deployment)
				if !ok {
					break
				}
				rv = d.ResourceVersion
				if c := condition(d, deployment.DeploymentProgressing); c != nil {
					l.mu.Lock()
					if n := len(l.reasons); n == 0 || l.reasons[n-1] != c.Reason {
						l.reasons = append(l.reasons, c.Reason)
					}
					l.mu.Unlock()
				}
			}
			w.Stop()
		}
	})
	return l
}

func (l *reasonLog) seen() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.reasons...)
}

// waitObserved waits until the controller has synced the Deployment's
// current generation.
func waitObserved(t *testing.T, ns, name string) *api.Deployment {
	t.Helper()
	var d *api.Deployment
	require.Eventually(t, func() bool {
		got, err := tryGetDeployment(ns, name)
		if err != nil {
			return false
		}
		d = got
		return d.Status.ObservedGeneration >= d.Generation
	}, waitFor, tick)
	return d
}

func TestPausedDeploymentScalesButDoesNotRollOutUntilResumed(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	reasons := watchProgressing(t, ns, "web")
	createDeployment(t, newDeployment(ns, "web", 4, "nginx:1"))
	v1 := newReplicaSetOf(t, waitComplete(t, ns, "web"))
	require.NotNil(t, v1)

	updateDeployment(t, ns, "web", func(d *api.Deployment) { d.Spec.Paused = true })
	d := waitObserved(t, ns, "web")
	c := condition(d, deployment.DeploymentProgressing)
	require.NotNil(t, c)
	assert.Equal(t, api.ConditionUnknown, c.Status)
	assert.Equal(t, "DeploymentPaused", c.Reason)
	assert.Equal(t, "Deployment is paused", c.Message)

	// A new template is recorded but not rolled out; a new size is.
	updateDeployment(t, ns, "web", func(d *api.Deployment) {
		d.Spec.Template.Spec.Containers[0].Image = "nginx:2"
		d.Spec.Replicas = int32p(6)
	})
	require.Eventually(t, func() bool { return *getReplicaSet(t, ns, v1.Name).Spec.Replicas == 6 }, waitFor, tick,
		"a paused Deployment is still scaled")
	d = waitObserved(t, ns, "web")
	require.Len(t, listReplicaSets(t, ns), 1, "no ReplicaSet for the new template while paused")
	assert.Equal(t, int32(0), d.Status.UpdatedReplicas, "the old pods are not of the current template")
	require.Eventually(t, func() bool { return len(listPods(t, ns, "app=web")) == 6 }, waitFor, tick)
	for _, p := range listPods(t, ns, "app=web") {
		assert.Equal(t, "nginx:1", p.Spec.Containers[0].Image)
	}

	updateDeployment(t, ns, "web", func(d *api.Deployment) { d.Spec.Paused = false })
	d = waitComplete(t, ns, "web")
	v2 := newReplicaSetOf(t, d)
	require.NotNil(t, v2)
	assert.Equal(t, int32(6), *v2.Spec.Replicas)
	assertStatusComplete(t, d, v2.Name)
	assert.Subset(t, reasons.seen(), []string{"NewReplicaSetCreated", "NewReplicaSetAvailable", "DeploymentPaused", "DeploymentResumed", "ReplicaSetUpdated"},
		"reasons seen: %v", reasons.seen())
}

// TestScalingMidRolloutIsProportional scales a Deployment whose rollout is
// stuck (the new pods never become ready) and checks that both ReplicaSets
// grow in proportion to their sizes, as Kubernetes computes it.
func TestScalingMidRolloutIsProportional(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	createDeployment(t, newDeployment(ns, "web", 10, "nginx:1"))
	v1 := newReplicaSetOf(t, waitComplete(t, ns, "web"))
	require.NotNil(t, v1)

	// 10 replicas, 25%/25%: at most 13 pods, at least 8 available. The
	// new pods crash, so the rollout stops at old 8 + new 5.
	updateDeployment(t, ns, "web", func(d *api.Deployment) {
		d.Spec.Template.Spec.Containers[0].Image = "nginx:broken"
		d.Spec.Template.Annotations = map[string]string{"kubeloop.dev/exit-code": "1"}
	})
	d := getDeployment(t, ns, "web")
	var v2 *api.ReplicaSet
	require.Eventually(t, func() bool {
		v2 = newReplicaSetOf(t, d)
		old := getReplicaSet(t, ns, v1.Name)
		return v2 != nil && *v2.Spec.Replicas == 5 && *old.Spec.Replicas == 8 && old.Status.Replicas == 8
	}, waitFor, tick, "the rollout stalls at 8 old and 5 new")

	// To 20 (at most 25 pods) through the scale subresource, as kubectl
	// scale does: 12 more, shared by max-replicas 13:
	// old 8×25/13 = 15.4 → 15, new 5×25/13 = 9.6 → 10.
	scaleDeployment(t, ns, "web", 20)
	require.Eventually(t, func() bool {
		return *getReplicaSet(t, ns, v1.Name).Spec.Replicas == 15 && *getReplicaSet(t, ns, v2.Name).Spec.Replicas == 10
	}, waitFor, tick, "old %d, new %d", *getReplicaSet(t, ns, v1.Name).Spec.Replicas, *getReplicaSet(t, ns, v2.Name).Spec.Replicas)
	for _, name := range []string{v1.Name, v2.Name} {
		rs := getReplicaSet(t, ns, name)
		assert.Equal(t, "20", rs.Annotations[deployment.DesiredReplicasAnnotation], name)
		assert.Equal(t, "25", rs.Annotations[deployment.MaxReplicasAnnotation], name)
	}
	// The recorder writes events after the scaling it reports: wait for
	// them rather than read them once.
	var msgs []string
	require.Eventually(t, func() bool {
		msgs = eventMessages(t, ns, "web")
		return slices.Contains(msgs, "ScalingReplicaSet: Scaled up replica set "+v1.Name+" to 15 from 8") &&
			slices.Contains(msgs, "ScalingReplicaSet: Scaled up replica set "+v2.Name+" to 10 from 5")
	}, waitFor, tick, "both scalings are reported: %v", msgs)
}

// scaleDeployment sets spec.replicas through the scale subresource.
func scaleDeployment(t *testing.T, ns, name string, n int32) {
	t.Helper()
	dc := deployments(testCluster.Client, ns)
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		s, err := dc.GetScale(clustertest.Context(t), name)
		if err != nil {
			return err
		}
		s.Spec.Replicas = n
		_, err = dc.UpdateScale(clustertest.Context(t), name, s, client.UpdateOptions{})
		return err
	}))
}
