package kubelet

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
	"kubeloop/kubelet/runtime"
)

func TestBoundPodBecomesRunningAndReadyAfterStartDelay(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	opts := fastOptions("node-start")
	opts.StartDelay = 700 * time.Millisecond
	opts.PodCIDR = "10.200.7.0/24"
	startKubelet(t, opts)
	h := watchPods(t, ns)
	createPod(t, newPod(ns, "web", "node-start", nil))

	require.Eventually(t, func() bool { return podReady(getPod(t, ns, "web")) }, waitFor, tick)
	pod := getPod(t, ns, "web")

	require.True(t, h.any("web", func(p *api.Pod) bool {
		return p.Status.Phase == api.PodPending && len(p.Status.ContainerStatuses) == 1 &&
			p.Status.ContainerStatuses[0].State.Waiting != nil &&
			p.Status.ContainerStatuses[0].State.Waiting.Reason == ReasonContainerCreating
	}), "the pod is reported Pending/ContainerCreating while its container starts")
	s := pod.Status
	require.Equal(t, api.PodRunning, s.Phase)
	require.True(t, strings.HasPrefix(s.PodIP, "10.200.7."), s.PodIP)
	require.Equal(t, []api.PodIP{{IP: s.PodIP}}, s.PodIPs)
	require.NotEmpty(t, s.HostIP)
	require.NotNil(t, s.StartTime)
	require.Equal(t, "BestEffort", s.QOSClass)
	for _, ct := range []api.PodConditionType{api.PodReadyToStartContainers, api.PodInitialized, api.ContainersReady, api.PodReady, api.PodScheduled} {
		c := condition(pod, ct)
		require.NotNil(t, c, ct)
		require.Equal(t, api.ConditionTrue, c.Status, ct)
		require.False(t, c.LastTransitionTime.IsZero(), ct)
	}
	require.Len(t, s.ContainerStatuses, 1)
	cs := s.ContainerStatuses[0]
	require.Equal(t, "web", cs.Name)
	require.Equal(t, "nginx:1.27", cs.Image)
	require.True(t, strings.HasPrefix(cs.ImageID, "nginx:1.27@sha256:"), cs.ImageID)
	require.True(t, strings.HasPrefix(cs.ContainerID, "kubeloop://"), cs.ContainerID)
	require.True(t, cs.Ready)
	require.True(t, *cs.Started)
	require.Equal(t, int32(0), cs.RestartCount)
	require.NotNil(t, cs.State.Running)

	require.Eventually(t, func() bool {
		r := eventReasons(t, ns, "web")
		return r[EventCreated] == "Created container: web" && r[EventStarted] == "Started container web"
	}, waitFor, tick)
}

func TestCrashingContainerRestartsWithBackOff(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	startKubelet(t, fastOptions("node-crash"))
	h := watchPods(t, ns)
	createPod(t, newPod(ns, "crash", "node-crash", map[string]string{runtime.AnnotationFailAfter: "200ms"}))

	require.Eventually(t, func() bool {
		p := getPod(t, ns, "crash")
		return len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].RestartCount >= 3
	}, waitFor, tick)

	require.True(t, h.any("crash", func(p *api.Pod) bool {
		if len(p.Status.ContainerStatuses) != 1 {
			return false
		}
		cs := p.Status.ContainerStatuses[0]
		return cs.State.Waiting != nil && cs.State.Waiting.Reason == ReasonCrashLoopBackOff &&
			strings.Contains(cs.State.Waiting.Message, "restarting failed container=web") &&
			cs.LastTerminationState.Terminated != nil && cs.LastTerminationState.Terminated.ExitCode == 1 &&
			p.Status.Phase == api.PodRunning && !cs.Ready
	}), "between restarts the container waits in CrashLoopBackOff, with the exit as lastState")
	require.True(t, h.any("crash", func(p *api.Pod) bool {
		c := condition(p, api.PodReady)
		return c != nil && c.Status == api.ConditionFalse && c.Reason == ReasonContainersNotReady
	}))
	require.Eventually(t, func() bool {
		return strings.HasPrefix(eventReasons(t, ns, "crash")[EventBackOff], "Back-off restarting failed container web in pod crash_")
	}, waitFor, tick)
}

func TestRestartPolicyDecidesTerminalPhase(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	startKubelet(t, fastOptions("node-phase"))
	cases := []struct {
		name     string
		policy   api.RestartPolicy
		exitCode string
		phase    api.PodPhase
		reason   string
	}{
		{"never-ok", api.RestartPolicyNever, "0", api.PodSucceeded, "Completed"},
		{"never-fail", api.RestartPolicyNever, "2", api.PodFailed, "Error"},
		{"onfailure-ok", api.RestartPolicyOnFailure, "0", api.PodSucceeded, "Completed"},
	}
	for _, tc := range cases {
		pod := newPod(ns, tc.name, "node-phase", map[string]string{runtime.AnnotationExitCode: tc.exitCode})
		pod.Spec.RestartPolicy = tc.policy
		createPod(t, pod)
	}
	for _, tc := range cases {
		require.Eventually(t, func() bool { return getPod(t, ns, tc.name).Status.Phase == tc.phase }, waitFor, tick, tc.name)
		p := getPod(t, ns, tc.name)
		cs := p.Status.ContainerStatuses[0]
		require.NotNil(t, cs.State.Terminated, tc.name)
		require.Equal(t, tc.reason, cs.State.Terminated.Reason, tc.name)
		require.Equal(t, tc.exitCode, strconv.Itoa(int(cs.State.Terminated.ExitCode)), tc.name)
		require.Equal(t, int32(0), cs.RestartCount, tc.name)
		require.Equal(t, api.ConditionFalse, condition(p, api.PodReady).Status, tc.name)
	}
}

func TestOnFailureRestartsFailedContainer(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	startKubelet(t, fastOptions("node-onfailure"))
	pod := newPod(ns, "retry", "node-onfailure", map[string]string{runtime.AnnotationExitCode: "3"})
	pod.Spec.RestartPolicy = api.RestartPolicyOnFailure
	createPod(t, pod)
	require.Eventually(t, func() bool {
		p := getPod(t, ns, "retry")
		return len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].RestartCount >= 2
	}, waitFor, tick)
	require.NotEqual(t, api.PodFailed, getPod(t, ns, "retry").Status.Phase, "OnFailure keeps restarting, the pod never fails")
}

func TestGracefulDeletionStopsThenRemovesPod(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	rt := runtime.NewFake(runtime.FakeConfig{IPPrefix: "10.201.1."})
	opts := fastOptions("node-delete")
	opts.Runtime = rt
	startKubelet(t, opts)
	h := watchPods(t, ns)
	createPod(t, newPod(ns, "doomed", "node-delete", nil))
	require.Eventually(t, func() bool { return podReady(getPod(t, ns, "doomed")) }, waitFor, tick)

	require.NoError(t, client.For[*api.Pod](testCluster.Client).Namespace(ns).Delete(clustertest.Context(t), "doomed", api.DeleteOptions{}))
	require.Eventually(t, func() bool { return getPod(t, ns, "doomed") == nil }, waitFor, tick)
	require.True(t, h.any("doomed", func(p *api.Pod) bool {
		return p.DeletionTimestamp != nil && *p.DeletionGracePeriodSeconds == 30
	}), "the DELETE was graceful: the pod first got a deletionTimestamp")
	require.Eventually(t, func() bool { return h.wasDeleted("doomed") }, waitFor, tick)
	require.Eventually(t, func() bool {
		sbs, _ := rt.ListPodSandbox(clustertest.Context(t), nil)
		cs, _ := rt.ListContainers(clustertest.Context(t), nil)
		return len(sbs) == 0 && len(cs) == 0
	}, waitFor, tick, "the runtime forgets the pod once the API has")
	require.Eventually(t, func() bool { return eventReasons(t, ns, "doomed")[EventKilling] == "Stopping container web" }, waitFor, tick)
}

func TestForceDeletedPodIsCleanedUpFromRuntime(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	rt := runtime.NewFake(runtime.FakeConfig{IPPrefix: "10.201.2."})
	opts := fastOptions("node-force")
	opts.Runtime = rt
	startKubelet(t, opts)
	createPod(t, newPod(ns, "gone", "node-force", nil))
	require.Eventually(t, func() bool { return podReady(getPod(t, ns, "gone")) }, waitFor, tick)
	zero := int64(0)
	require.NoError(t, client.For[*api.Pod](testCluster.Client).Namespace(ns).Delete(clustertest.Context(t), "gone", api.DeleteOptions{GracePeriodSeconds: &zero}))
	require.Eventually(t, func() bool {
		sbs, _ := rt.ListPodSandbox(clustertest.Context(t), nil)
		return len(sbs) == 0
	}, waitFor, tick)
}

func TestPodsOfOtherNodesAreIgnored(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	startKubelet(t, fastOptions("node-mine"))
	createPod(t, newPod(ns, "mine", "node-mine", nil))
	createPod(t, newPod(ns, "theirs", "node-elsewhere", nil))
	require.Eventually(t, func() bool { return podReady(getPod(t, ns, "mine")) }, waitFor, tick)
	theirs := getPod(t, ns, "theirs")
	require.Empty(t, theirs.Status.HostIP, "a pod bound to another node gets no status from this kubelet")
	require.Empty(t, theirs.Status.ContainerStatuses)
}
