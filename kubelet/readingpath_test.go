package kubelet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/cluster/clustertest"
)

// Reading path, step 9 (docs/reading-path.md): the node agent is another
// reconciler. A pod bound to this node (spec.nodeName set, as the
// scheduler's binding leaves it) reaches the kubelet's informer; UpdatePod
// hands it to the pod's worker, syncPod starts its container in the fake
// runtime, and the status goes back through pods/status: first Pending,
// then Running and Ready. Break in podWorkers.UpdatePod, Kubelet.syncPod
// and Kubelet.setPodStatus.
func TestReadingPathStep9KubeletStartsPodAndReportsStatus(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	opts := fastOptions("node-readingpath")
	opts.StartDelay = 300 * time.Millisecond
	startKubelet(t, opts)
	h := watchPods(t, ns)
	createPod(t, newPod(ns, "web", "node-readingpath", nil))

	require.Eventually(t, func() bool { return podReady(getPod(t, ns, "web")) }, waitFor, tick)
	assert.Equal(t, api.PodRunning, getPod(t, ns, "web").Status.Phase)
	assert.True(t, h.any("web", func(p *api.Pod) bool {
		return p.Status.Phase == api.PodPending && len(p.Status.ContainerStatuses) == 1
	}), "the kubelet reported the pod Pending while its container started")
}
