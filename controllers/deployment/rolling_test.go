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

// TestRollingUpdateHoldsItsLimitsOnEveryPodEvent scales a Deployment from
// 0 to N, then changes its image, and checks on every pod event of the
// namespace, as seen through a watch of its own, that never more than
// replicas+maxSurge pods run and, during the rollout, never fewer than
// replicas−maxUnavailable are available.
func TestRollingUpdateHoldsItsLimitsOnEveryPodEvent(t *testing.T) {
	cases := []struct {
		name               string
		replicas           int32
		surge, unavailable api.IntOrString
		maxPods, minAvail  int
	}{
		{"50 replicas 25% 25%", 50, api.FromString("25%"), api.FromString("25%"), 63, 38},
		{"20 replicas surge only", 20, api.FromInt32(5), api.FromInt32(0), 25, 20},
		{"20 replicas unavailability only", 20, api.FromString("0%"), api.FromString("20%"), 20, 16},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ns := clustertest.Namespace(t, testCluster)
			w := watchPods(t, ns)
			d := newDeployment(ns, "web", 0, "nginx:1")
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: &c.surge, MaxUnavailable: &c.unavailable}
			createDeployment(t, d)
			waitComplete(t, ns, "web")

			// Scaling up from 0 is no rollout, but the surge limit holds.
			w.arm(c.maxPods, 0)
			updateDeployment(t, ns, "web", func(d *api.Deployment) { d.Spec.Replicas = int32p(c.replicas) })
			d = waitComplete(t, ns, "web")
			first := newReplicaSetOf(t, d)
			require.NotNil(t, first)
			assert.Equal(t, "1", first.Annotations[deployment.RevisionAnnotation])

			w.arm(c.maxPods, c.minAvail)
			d = setImage(t, ns, "web", "nginx:2")
			d = waitComplete(t, ns, "web")
			peak, low, events, relists, violations := w.result()
			require.Empty(t, violations, "limits broken (peak %d pods, low %d available)", peak, low)
			assert.Zero(t, relists, "the watch saw every event")
			assert.Greater(t, events, 3*int(c.replicas), "the watch saw the rollout")
			assert.LessOrEqual(t, peak, c.maxPods)
			assert.GreaterOrEqual(t, low, c.minAvail)
			t.Logf("%d events, at most %d pods, at least %d available", events, peak, low)

			second := newReplicaSetOf(t, d)
			require.NotNil(t, second)
			hash := deployment.ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
			assert.Equal(t, "web-"+hash, second.Name, "named <deployment>-<pod-template-hash>")
			assert.Equal(t, hash, second.Labels[deployment.DefaultDeploymentUniqueLabelKey])
			assert.Equal(t, hash, second.Spec.Selector.MatchLabels[deployment.DefaultDeploymentUniqueLabelKey])
			assert.Equal(t, hash, second.Spec.Template.Labels[deployment.DefaultDeploymentUniqueLabelKey])
			assert.Equal(t, "2", second.Annotations[deployment.RevisionAnnotation])
			assert.Equal(t, "2", d.Annotations[deployment.RevisionAnnotation])
			assert.Equal(t, fmt.Sprint(c.replicas), second.Annotations[deployment.DesiredReplicasAnnotation])
			ref := getControllerRef(second.OwnerReferences)
			require.NotNil(t, ref)
			assert.Equal(t, api.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: d.UID,
				Controller: ref.Controller, BlockOwnerDeletion: ref.BlockOwnerDeletion}, *ref)
			require.NotNil(t, ref.BlockOwnerDeletion)
			assert.True(t, *ref.BlockOwnerDeletion)

			pods := listPods(t, ns, "app=web")
			require.Len(t, pods, int(c.replicas))
			for _, p := range pods {
				assert.Equal(t, hash, p.Labels[deployment.DefaultDeploymentUniqueLabelKey], "pod %s is of the new template", p.Name)
				assert.Equal(t, "nginx:2", p.Spec.Containers[0].Image)
			}
			old := getReplicaSet(t, ns, first.Name)
			assert.Equal(t, int32(0), *old.Spec.Replicas, "the old ReplicaSet is kept, empty")

			assertStatusComplete(t, d, second.Name)
			msgs := eventMessages(t, ns, "web")
			assert.Contains(t, msgs, fmt.Sprintf("ScalingReplicaSet: Scaled up replica set %s to %d from 0", first.Name, c.replicas))
			// The recorder's spam filter (Kubernetes': 25 events per object,
			// then one per 5 minutes) drops the last steps of a long rollout,
			// so only the first ones are certain to be there.
			assertEventPrefix(t, msgs, fmt.Sprintf("ScalingReplicaSet: Scaled up replica set %s to ", second.Name))
			assertEventPrefix(t, msgs, fmt.Sprintf("ScalingReplicaSet: Scaled down replica set %s to ", first.Name))
		})
	}
}
