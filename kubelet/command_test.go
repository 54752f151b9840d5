package kubelet

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/cluster/clustertest"
	"kubeloop/kubelet/runtime"
)

// shPod is a pod whose one container runs script with sh -c.
func shPod(ns, name, node string, policy api.RestartPolicy, script string) *api.Pod {
	pod := newPod(ns, name, node, nil)
	pod.Spec.RestartPolicy = policy
	pod.Spec.Containers[0].Image = "busybox"
	pod.Spec.Containers[0].Command = []string{"sh", "-c", script}
	return pod
}

func TestNeverPodRunsItsScriptThenSucceedsOrFails(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	startKubelet(t, fastOptions("node-script"))
	h := watchPods(t, ns)
	createPod(t, shPod(ns, "ok", "node-script", api.RestartPolicyNever, "sleep 0.3 && true"))
	createPod(t, shPod(ns, "fail", "node-script", api.RestartPolicyNever, "sleep 0.3; exit 3"))
	bare := newPod(ns, "bare", "node-script", nil)
	bare.Spec.RestartPolicy = api.RestartPolicyNever
	bare.Spec.Containers[0].Command = []string{"sleep", "0.3"}
	createPod(t, bare)

	for _, tc := range []struct {
		name   string
		phase  api.PodPhase
		code   int32
		reason string
	}{{"ok", api.PodSucceeded, 0, "Completed"}, {"fail", api.PodFailed, 3, "Error"}, {"bare", api.PodSucceeded, 0, "Completed"}} {
		require.Eventually(t, func() bool { return getPod(t, ns, tc.name).Status.Phase == tc.phase }, waitFor, tick, tc.name)
		require.True(t, h.any(tc.name, func(p *api.Pod) bool {
			return p.Status.Phase == api.PodRunning && len(p.Status.ContainerStatuses) == 1 &&
				p.Status.ContainerStatuses[0].State.Running != nil
		}), "%s ran before it ended", tc.name)
		p := getPod(t, ns, tc.name)
		cs := p.Status.ContainerStatuses[0]
		require.NotNil(t, cs.State.Terminated, tc.name)
		term := cs.State.Terminated
		require.Equal(t, tc.code, term.ExitCode, tc.name)
		require.Equal(t, tc.reason, term.Reason, tc.name)
		require.Equal(t, cs.ContainerID, term.ContainerID, tc.name)
		require.False(t, term.StartedAt.IsZero(), tc.name)
		require.False(t, term.FinishedAt.Before(term.StartedAt.Time), tc.name)
		require.False(t, cs.Ready, tc.name)
		require.Equal(t, int32(0), cs.RestartCount, tc.name)
		require.Nil(t, cs.LastTerminationState.Terminated, tc.name)
		ready := condition(p, api.PodReady)
		require.Equal(t, api.ConditionFalse, ready.Status, tc.name)
		if tc.phase == api.PodSucceeded {
			require.Equal(t, ReasonPodCompleted, ready.Reason, tc.name)
		} else {
			require.Equal(t, ReasonContainersNotReady, ready.Reason, tc.name)
		}
	}
	require.False(t, h.any("fail", func(p *api.Pod) bool { return p.Status.Phase == api.PodSucceeded }), "a failed pod never showed Succeeded")
}

func TestOnFailureRestartsAFailingScriptUntilItSucceeds(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	startKubelet(t, fastOptions("node-script-onfailure"))
	h := watchPods(t, ns)
	createPod(t, shPod(ns, "crash", "node-script-onfailure", api.RestartPolicyOnFailure, "sleep 0.1; exit 2"))
	createPod(t, shPod(ns, "done", "node-script-onfailure", api.RestartPolicyOnFailure, "sleep 0.1 && exit 0"))

	require.Eventually(t, func() bool {
		p := getPod(t, ns, "crash")
		return len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].RestartCount >= 3
	}, waitFor, tick)
	require.True(t, h.any("crash", func(p *api.Pod) bool {
		cs := p.Status.ContainerStatuses
		return len(cs) == 1 && p.Status.Phase == api.PodRunning &&
			cs[0].State.Waiting != nil && cs[0].State.Waiting.Reason == ReasonCrashLoopBackOff &&
			cs[0].LastTerminationState.Terminated != nil && cs[0].LastTerminationState.Terminated.ExitCode == 2 &&
			cs[0].LastTerminationState.Terminated.Reason == "Error"
	}), "between restarts: Running, waiting in CrashLoopBackOff, the failed exit as lastState")
	require.True(t, h.any("crash", func(p *api.Pod) bool {
		cs := p.Status.ContainerStatuses
		return len(cs) == 1 && cs[0].RestartCount > 0 && cs[0].State.Running != nil && cs[0].LastTerminationState.Terminated != nil
	}), "a restarted container runs with the previous exit as lastState")
	require.False(t, h.any("crash", func(p *api.Pod) bool { return isTerminal(p.Status.Phase) }), "OnFailure never fails the pod")

	require.Eventually(t, func() bool { return getPod(t, ns, "done").Status.Phase == api.PodSucceeded }, waitFor, tick)
	require.Equal(t, int32(0), getPod(t, ns, "done").Status.ContainerStatuses[0].RestartCount)
}

func TestAlwaysRestartsEvenASucceedingScript(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	startKubelet(t, fastOptions("node-script-always"))
	h := watchPods(t, ns)
	createPod(t, shPod(ns, "loop", "node-script-always", api.RestartPolicyAlways, "exit 0"))
	require.Eventually(t, func() bool {
		p := getPod(t, ns, "loop")
		return len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].RestartCount >= 2
	}, waitFor, tick)
	require.True(t, h.any("loop", func(p *api.Pod) bool {
		cs := p.Status.ContainerStatuses
		return len(cs) == 1 && p.Status.Phase == api.PodRunning && cs[0].State.Waiting != nil &&
			cs[0].State.Waiting.Reason == ReasonCrashLoopBackOff &&
			cs[0].LastTerminationState.Terminated != nil && cs[0].LastTerminationState.Terminated.Reason == "Completed"
	}), "Kubernetes backs off a container that keeps completing, too")
	require.False(t, h.any("loop", func(p *api.Pod) bool { return isTerminal(p.Status.Phase) }))
}

// startRecorder wraps the fake runtime and notes when each container
// attempt started.
type startRecorder struct {
	*runtime.Fake
	mu     sync.Mutex
	starts []time.Time
}

func (r *startRecorder) StartContainer(ctx context.Context, id string) error {
	err := r.Fake.StartContainer(ctx, id)
	r.mu.Lock()
	r.starts = append(r.starts, time.Now())
	r.mu.Unlock()
	return err
}

func (r *startRecorder) startTimes() []time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Time(nil), r.starts...)
}

func TestRestartsWaitTheDoublingBackOff(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	rt := &startRecorder{Fake: runtime.NewFake(runtime.FakeConfig{IPPrefix: "10.201.9."})}
	opts := fastOptions("node-script-backoff")
	opts.Runtime = rt
	startKubelet(t, opts)
	// exit 1 ends the container the moment it starts, so the time between
	// two starts is the back-off (100 ms doubling to 400 ms here).
	createPod(t, shPod(ns, "fast", "node-script-backoff", api.RestartPolicyOnFailure, "exit 1"))
	require.Eventually(t, func() bool { return len(rt.startTimes()) >= 6 }, waitFor, tick)
	starts := rt.startTimes()
	ms := time.Millisecond
	for i, want := range []time.Duration{0, 100 * ms, 200 * ms, 400 * ms, 400 * ms} {
		require.GreaterOrEqual(t, starts[i+1].Sub(starts[i]), want, "restart %d", i+1)
	}
}
