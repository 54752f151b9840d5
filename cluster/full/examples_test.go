package full

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/client"
)

// The README walks a newcomer through examples/: these tests keep that
// walkthrough true on the standard cluster.

func readExample[T api.Object](t *testing.T, name string, into T) T {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
	require.NoError(t, err)
	require.NoError(t, yaml.UnmarshalStrict(data, into), "examples/%s must decode without unknown fields", name)
	return into
}

func TestExampleReplicaSetRunsFivePodsThenScalesToTwo(t *testing.T) {
	c := startCluster(t, Options{Nodes: 3, Kubelet: fastKubelet()})
	ns := newNamespace(t, c)
	rs := readExample(t, "web-rs.yaml", &api.ReplicaSet{})
	rs.Namespace = ns
	createReplicaSet(t, c, rs)

	require.Eventually(t, func() bool {
		return sum(readyPodsByNode(listPods(t, c, ns, "app=web"))) == 5
	}, waitFor, tick, "the example's five pods run")

	// The controller writes status meanwhile, so the read-modify-write of
	// the scale retries on Conflict, as every client of a busy object must.
	rsc := client.For[*api.ReplicaSet](c.Client).Namespace(ns)
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		scale, err := rsc.GetScale(testCtx(t), "web")
		if err != nil {
			return err
		}
		scale.Spec.Replicas = 2
		_, err = rsc.UpdateScale(testCtx(t), "web", scale, client.UpdateOptions{})
		return err
	}))
	require.Eventually(t, func() bool {
		live := 0
		for _, p := range listPods(t, c, ns, "app=web") {
			if p.DeletionTimestamp == nil {
				live++
			}
		}
		return live == 2
	}, waitFor, tick, "scaling to two leaves two")
}

func TestExampleCrashLoopPodRestarts(t *testing.T) {
	c := startCluster(t, Options{Nodes: 1, Kubelet: fastKubelet()})
	ns := newNamespace(t, c)
	pod := readExample(t, "crashloop-pod.yaml", &api.Pod{})
	pod.Namespace = ns
	// The example fails after 2 s; the test keeps its annotation's meaning
	// but not its patience.
	pod.Annotations["kubeloop.dev/fail-after"] = "100ms"
	_, err := client.For[*api.Pod](c.Client).Namespace(ns).Create(testCtx(t), pod, client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		p, err := client.For[*api.Pod](c.Client).Namespace(ns).Get(testCtx(t), "crasher", client.GetOptions{})
		return err == nil && len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].RestartCount >= 2
	}, waitFor, tick, "the crashing container is restarted")
}
