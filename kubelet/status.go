package kubelet

import (
	"fmt"
	"strings"
	"time"

	"kubeloop/api"
	"kubeloop/kubelet/runtime"
)

// Container waiting reasons (Kubernetes: pkg/kubelet/container and
// kuberuntime).
const (
	ReasonContainerCreating = "ContainerCreating"
	ReasonCrashLoopBackOff  = "CrashLoopBackOff"
)

// Pod condition reasons the kubelet writes (pkg/kubelet/status).
const (
	ReasonContainersNotReady = "ContainersNotReady"
	ReasonPodCompleted       = "PodCompleted"
)

// generateAPIPodStatus turns the runtime's view of the pod into the API
// status, carrying over what must not move (startTime, transition times,
// a terminal phase). wake, when positive, is when the status will change
// without the runtime changing (a back-off ending).
// Kubernetes: kubelet_pods.go, generateAPIPodStatus.
func (kl *Kubelet) generateAPIPodStatus(pod *api.Pod, rp *runtimePod, w *podWorker, now time.Time) (api.PodStatus, time.Duration) {
	// The status this worker last wrote is fresher than the informer's.
	old := pod.Status
	if w.lastStatus != nil {
		old = *w.lastStatus
	}
	s := api.PodStatus{
		HostIP:    kl.opts.NodeIP,
		QOSClass:  qosClass(pod),
		StartTime: old.StartTime.DeepCopy(),
		PodIP:     old.PodIP,
		PodIPs:    append([]api.PodIP(nil), old.PodIPs...),
	}
	if s.StartTime == nil {
		t := api.NewTime(now)
		s.StartTime = &t
	}
	if rp.sandbox != nil {
		s.PodIP, s.PodIPs = rp.sandbox.IP, []api.PodIP{{IP: rp.sandbox.IP}}
	}
	var wake time.Duration
	for i := range pod.Spec.Containers {
		cs, w := kl.containerStatus(pod, &pod.Spec.Containers[i], rp, now)
		s.ContainerStatuses = append(s.ContainerStatuses, cs)
		if w > 0 && (wake == 0 || w < wake) {
			wake = w
		}
	}
	s.Phase = getPhase(pod.Spec.RestartPolicy, s.ContainerStatuses)
	// Pods never leave a terminal phase.
	if isTerminal(old.Phase) {
		s.Phase = old.Phase
	}
	if s.Phase == old.Phase {
		s.Reason, s.Message = old.Reason, old.Message
	}
	s.Conditions = podConditions(pod, old.Conditions, s, rp.sandbox != nil, now)
	return s, wake
}

// containerStatus reports one container: its newest attempt's state, and
// the previous attempt's end as lastState.
func (kl *Kubelet) containerStatus(pod *api.Pod, spec *api.Container, rp *runtimePod, now time.Time) (api.ContainerStatus, time.Duration) {
	started := false
	cs := api.ContainerStatus{Name: spec.Name, Image: spec.Image, Started: &started}
	all := rp.containers[spec.Name]
	if len(all) == 0 {
		cs.State.Waiting = &api.ContainerStateWaiting{Reason: ReasonContainerCreating}
		return cs, 0
	}
	latest := all[0]
	cs.RestartCount = int32(latest.Attempt)
	cs.ImageID = latest.ImageRef
	cs.ContainerID = containerID(latest.ID)
	if len(all) > 1 && all[1].State == runtime.ContainerExited {
		cs.LastTerminationState.Terminated = terminated(all[1])
	}
	var wake time.Duration
	switch latest.State {
	case runtime.ContainerCreated:
		cs.State.Waiting = &api.ContainerStateWaiting{Reason: ReasonContainerCreating}
	case runtime.ContainerRunning:
		cs.State.Running = &api.ContainerStateRunning{StartedAt: api.NewTime(latest.StartedAt)}
		cs.Ready, started = true, true
	case runtime.ContainerExited:
		term := terminated(latest)
		if pod.DeletionTimestamp == nil && shouldRestart(pod.Spec.RestartPolicy, latest.ExitCode) {
			in, wait, delay := kl.backOff.inBackOffSince(backOffKey(pod, spec.Name), latest.FinishedAt, now)
			if in {
				cs.State.Waiting = &api.ContainerStateWaiting{
					Reason: ReasonCrashLoopBackOff,
					Message: fmt.Sprintf("back-off %s restarting failed container=%s pod=%s",
						delay, spec.Name, podDesc(pod)),
				}
				cs.LastTerminationState = api.ContainerState{Terminated: term}
				wake = wait
				break
			}
		}
		cs.State.Terminated = term
	}
	return cs, wake
}

func terminated(c runtime.Container) *api.ContainerStateTerminated {
	return &api.ContainerStateTerminated{
		ExitCode:    c.ExitCode,
		Reason:      c.Reason,
		StartedAt:   api.NewTime(c.StartedAt),
		FinishedAt:  api.NewTime(c.FinishedAt),
		ContainerID: containerID(c.ID),
	}
}

// containerID is the runtime-qualified ID the API shows ("docker://...",
// "containerd://..."; ours is kubeloop://).
func containerID(id string) string { return "kubeloop://" + id }

// getPhase derives the pod phase from its containers, as Kubernetes' getPhase
// does for pods without init containers: any container not yet started →
// Pending; any running → Running; all stopped → Succeeded, Failed, or
// Running while a restart is due.
func getPhase(policy api.RestartPolicy, statuses []api.ContainerStatus) api.PodPhase {
	var running, waiting, stopped, succeeded int
	for _, cs := range statuses {
		switch {
		case cs.State.Running != nil:
			running++
		case cs.State.Terminated != nil:
			stopped++
			if cs.State.Terminated.ExitCode == 0 {
				succeeded++
			}
		case cs.State.Waiting != nil && cs.LastTerminationState.Terminated != nil:
			stopped++ // restarting
		default:
			waiting++
		}
	}
	switch {
	case waiting > 0:
		return api.PodPending
	case running > 0:
		return api.PodRunning
	case stopped > 0:
		switch {
		case policy == api.RestartPolicyAlways || policy == "":
			return api.PodRunning
		case stopped == succeeded:
			return api.PodSucceeded
		case policy == api.RestartPolicyNever:
			return api.PodFailed
		default:
			return api.PodRunning // OnFailure, restarting
		}
	default:
		return api.PodPending
	}
}

// podConditions builds the conditions the kubelet owns and keeps the rest
// (PodScheduled, which the scheduler may have set). A condition keeps its
// lastTransitionTime while its status does not change.
// Kubernetes: pkg/kubelet/status/generate.go.
func podConditions(pod *api.Pod, old []api.PodCondition, s api.PodStatus, hasSandbox bool, now time.Time) []api.PodCondition {
	var unready []string
	for _, cs := range s.ContainerStatuses {
		if !cs.Ready {
			unready = append(unready, cs.Name)
		}
	}
	ready := api.PodCondition{Status: api.ConditionTrue}
	switch {
	case s.Phase == api.PodSucceeded:
		ready = api.PodCondition{Status: api.ConditionFalse, Reason: ReasonPodCompleted}
	case len(unready) > 0:
		ready = api.PodCondition{Status: api.ConditionFalse, Reason: ReasonContainersNotReady,
			Message: "containers with unready status: [" + strings.Join(unready, " ") + "]"}
	}
	sandbox := api.ConditionFalse
	if hasSandbox {
		sandbox = api.ConditionTrue
	}
	owned := []api.PodCondition{
		{Type: api.PodReadyToStartContainers, Status: sandbox},
		{Type: api.PodInitialized, Status: api.ConditionTrue},
		withType(ready, api.PodReady),
		withType(ready, api.ContainersReady),
	}
	var out []api.PodCondition
	scheduled := false
	for _, c := range old {
		switch c.Type {
		case api.PodReadyToStartContainers, api.PodInitialized, api.PodReady, api.ContainersReady:
		case api.PodScheduled:
			scheduled = true
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	for _, c := range owned {
		c.LastTransitionTime = api.NewTime(now)
		for _, o := range old {
			if o.Type == c.Type && o.Status == c.Status {
				c.LastTransitionTime = o.LastTransitionTime
			}
		}
		out = append(out, c)
	}
	if !scheduled {
		out = append(out, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(now)})
	}
	// Kubernetes lists them in this order: kubelet's first, PodScheduled last.
	return sortConditions(out)
}

func withType(c api.PodCondition, t api.PodConditionType) api.PodCondition {
	c.Type = t
	return c
}

func sortConditions(cs []api.PodCondition) []api.PodCondition {
	rank := map[api.PodConditionType]int{
		api.PodReadyToStartContainers: 0, api.PodInitialized: 1, api.PodReady: 2,
		api.ContainersReady: 3, api.PodScheduled: 4,
	}
	out := make([]api.PodCondition, 0, len(cs))
	for r := 0; r <= 5; r++ {
		for _, c := range cs {
			k, ok := rank[c.Type]
			if (ok && k == r) || (!ok && r == 5) {
				out = append(out, c)
			}
		}
	}
	return out
}

// qosClass is the pod's quality of service class (pkg/apis/core/v1/helper/qos):
// no requests or limits → BestEffort; limits equal to requests for cpu and
// memory in every container → Guaranteed; anything else → Burstable.
func qosClass(pod *api.Pod) string {
	any, guaranteed := false, true
	for _, c := range pod.Spec.Containers {
		if len(c.Resources.Requests) > 0 || len(c.Resources.Limits) > 0 {
			any = true
		}
		for _, r := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
			lim, ok := c.Resources.Limits[r]
			if !ok {
				guaranteed = false
				continue
			}
			if req, ok := c.Resources.Requests[r]; ok && req != lim {
				guaranteed = false
			}
		}
	}
	switch {
	case !any:
		return "BestEffort"
	case guaranteed:
		return "Guaranteed"
	default:
		return "Burstable"
	}
}
