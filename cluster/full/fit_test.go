package full

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/kubelet"
	"kubeloop/kubelet/runtime"
)

func bigPod(ns, name string, cpu string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns},
		Spec: api.PodSpec{Containers: []api.Container{{
			Name: "web", Image: "nginx:1.27",
			Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity(cpu)}},
		}}},
	}
}

// TestPodThatFitsNoNodeWaitsForABiggerOne: three 1-cpu nodes cannot take a
// 2-cpu pod, which stays Pending with Kubernetes' FitError message; a
// 4-cpu node joining is the cluster event that makes the scheduler retry.
func TestPodThatFitsNoNodeWaitsForABiggerOne(t *testing.T) {
	small := fastKubelet()
	small.CPU = "1"
	c := startCluster(t, Options{Nodes: 3, Kubelet: small})
	ns := newNamespace(t, c)
	pods := client.For[*api.Pod](c.Client).Namespace(ns)
	_, err := pods.Create(testCtx(t), bigPod(ns, "big", "2"), client.CreateOptions{})
	require.NoError(t, err)

	require.Eventually(t, func() bool {
		p, err := pods.Get(testCtx(t), "big", client.GetOptions{})
		require.NoError(t, err)
		cond := podCondition(p, api.PodScheduled)
		return cond != nil && cond.Status == api.ConditionFalse && cond.Reason == api.PodReasonUnschedulable &&
			cond.Message == "0/3 nodes are available: 3 Insufficient cpu."
	}, waitFor, tick, "PodScheduled=False, Unschedulable, with the FitError message")
	p, err := pods.Get(testCtx(t), "big", client.GetOptions{})
	require.NoError(t, err)
	assert.Empty(t, p.Spec.NodeName)
	assert.Equal(t, api.PodPending, p.Status.Phase)
	require.Eventually(t, func() bool {
		return len(eventsByReason(t, c, ns)["FailedScheduling"]) > 0
	}, waitFor, tick, "a FailedScheduling event")

	big := fastKubelet()
	big.CPU = "4"
	c.StartComponent(Node("big", 10, big))
	require.Eventually(t, func() bool {
		p, err := pods.Get(testCtx(t), "big", client.GetOptions{})
		require.NoError(t, err)
		return p.Spec.NodeName == "big" && podReady(p)
	}, waitFor, tick, "the pod is scheduled on the new node and runs")
	p, err = pods.Get(testCtx(t), "big", client.GetOptions{})
	require.NoError(t, err)
	cond := podCondition(p, api.PodScheduled)
	require.NotNil(t, cond)
	assert.Equal(t, api.ConditionTrue, cond.Status)
}

// TestCrashingPodLoopsWithBackOffAsKubectlShows runs a container that
// exits 100 ms after each start: the kubelet restarts it with back-off, and
// the STATUS column kubectl prints (the server-side Table) says
// CrashLoopBackOff while it waits.
func TestCrashingPodLoopsWithBackOffAsKubectlShows(t *testing.T) {
	c := startCluster(t, Options{Nodes: 1, Kubelet: fastKubelet()})
	ns := newNamespace(t, c)
	pod := bigPod(ns, "crash", "100m")
	pod.Annotations = map[string]string{runtime.AnnotationFailAfter: "100ms"}
	pods := client.For[*api.Pod](c.Client).Namespace(ns)
	_, err := pods.Create(testCtx(t), pod, client.CreateOptions{})
	require.NoError(t, err)

	var statuses []string
	require.Eventually(t, func() bool {
		s := kubectlStatus(t, c, ns, "crash")
		if len(statuses) == 0 || statuses[len(statuses)-1] != s {
			statuses = append(statuses, s)
		}
		return s == kubelet.ReasonCrashLoopBackOff
	}, waitFor, 10*time.Millisecond, "kubectl get pod shows CrashLoopBackOff (saw %v)", statuses)

	require.Eventually(t, func() bool {
		p, err := pods.Get(testCtx(t), "crash", client.GetOptions{})
		require.NoError(t, err)
		return len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].RestartCount >= 3
	}, waitFor, tick, "restartCount grows to 3")
	p, err := pods.Get(testCtx(t), "crash", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "node-1", p.Spec.NodeName)
	assert.Equal(t, api.PodRunning, p.Status.Phase, "restartPolicy Always keeps the pod Running")
	last := p.Status.ContainerStatuses[0].LastTerminationState.Terminated
	require.NotNil(t, last)
	assert.Equal(t, int32(1), last.ExitCode)
	require.Eventually(t, func() bool {
		return len(eventsByReason(t, c, ns)[kubelet.EventBackOff]) > 0
	}, waitFor, tick, "a BackOff event")
}

// kubectlStatus asks for the pod as kubectl get does (a Table) and returns
// the STATUS cell.
func kubectlStatus(t *testing.T, c *cluster.Cluster, ns, name string) string {
	t.Helper()
	req, err := http.NewRequestWithContext(testCtx(t), http.MethodGet, fmt.Sprintf("%s/api/v1/namespaces/%s/pods/%s", c.URL, ns, name), nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json")
	hc, err := client.HTTPClientFor(c.Config)
	require.NoError(t, err)
	resp, err := hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	var table struct {
		Kind              string
		ColumnDefinitions []struct{ Name string }
		Rows              []struct{ Cells []any }
	}
	require.NoError(t, json.NewDecoder(bytes.NewReader(body)).Decode(&table))
	require.Equal(t, "Table", table.Kind)
	require.Len(t, table.Rows, 1)
	for i, col := range table.ColumnDefinitions {
		if col.Name == "Status" {
			s, _ := table.Rows[0].Cells[i].(string)
			return s
		}
	}
	t.Fatalf("no Status column in %s", body)
	return ""
}
