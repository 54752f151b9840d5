package deployment_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/cluster/clustertest"
	"kubeloop/cluster/full"
	"kubeloop/controllers/deployment"
)

// TestManagerKilledMidRolloutIsSucceededByOneThatConverges stops the
// whole controller manager (Deployment and ReplicaSet controllers alike)
// in the middle of a rolling update, starts a fresh one, and checks that
// it finishes the rollout from the ReplicaSets as it finds them, within
// the same limits, checked on every pod event across both managers.
func TestManagerKilledMidRolloutIsSucceededByOneThatConverges(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	w := watchPods(t, ns)
	createDeployment(t, newDeployment(ns, "web", 30, "nginx:1"))
	v1 := newReplicaSetOf(t, waitComplete(t, ns, "web"))
	require.NotNil(t, v1)

	// 30 replicas, 25%/25%: at most 38 pods, at least 23 available.
	w.arm(38, 23)
	d := setImage(t, ns, "web", "nginx:2")
	require.Eventually(t, func() bool {
		v2 := newReplicaSetOf(t, d)
		return v2 != nil && *v2.Spec.Replicas > 0 && *getReplicaSet(t, ns, v1.Name).Spec.Replicas < 30
	}, waitFor, 2*time.Millisecond, "the rollout never started")
	require.NoError(t, testCluster.StopComponent(full.ControllerManagerName))
	restart := func() {
		cm, err := full.ControllerManager(nil)
		require.NoError(t, err)
		testCluster.StartComponent(cm)
	}
	restarted := false
	t.Cleanup(func() {
		if !restarted {
			restart()
		}
	})
	oldAtStop := *getReplicaSet(t, ns, v1.Name).Spec.Replicas
	require.Greater(t, oldAtStop, int32(0), "stopped mid-rollout")

	// A killed manager's last writes may still be in the apiserver; a real
	// successor starts only after the lease expires, long after they have
	// finished. Wait for the same: no mutating request in flight.
	require.Eventually(t, func() bool { return mutatingInflight(t) == 0 }, waitFor, 2*time.Millisecond)
	restart()
	restarted = true

	d = waitComplete(t, ns, "web")
	peak, low, events, _, violations := w.result()
	require.Empty(t, violations, "limits broken (peak %d pods, low %d available)", peak, low)
	t.Logf("stopped with %d old replicas wanted; %d events, at most %d pods, at least %d available", oldAtStop, events, peak, low)
	rss := listReplicaSets(t, ns)
	require.Len(t, rss, 2, "the successor found the new ReplicaSet rather than making another")
	v2 := newReplicaSetOf(t, d)
	require.NotNil(t, v2)
	assert.Equal(t, "2", v2.Annotations[deployment.RevisionAnnotation])
	assert.Equal(t, int32(0), *getReplicaSet(t, ns, v1.Name).Spec.Replicas)
	pods := listPods(t, ns, "app=web")
	require.Len(t, pods, 30)
	for _, p := range pods {
		assert.Equal(t, "nginx:2", p.Spec.Containers[0].Image)
	}
	assertStatusComplete(t, d, v2.Name)
}

// mutatingInflight reads the apiserver's count of writes in progress.
func mutatingInflight(t *testing.T) float64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	body, err := testCluster.Client.DoRaw(ctx, "GET", "/metrics", nil, nil)
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, `apiserver_current_inflight_requests{request_kind="mutating"} `); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err == nil {
				return f
			}
		}
	}
	return 0
}
