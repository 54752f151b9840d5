package kubelet

import (
	"context"
	"fmt"
	"time"

	"kubeloop/api"
	"kubeloop/kubelet/runtime"
)

// Event reasons the kubelet records (Kubernetes: pkg/kubelet/events).
const (
	EventCreated = "Created"
	EventStarted = "Started"
	EventKilling = "Killing"
	EventBackOff = "BackOff"
	EventFailed  = "Failed"
)

// podActions is what one sync must do to the runtime, computed from the pod
// spec and the runtime's state. Kubernetes: kuberuntime_manager.go,
// podActions and computePodActions.
type podActions struct {
	createSandbox bool
	start         []containerStart
	// wait, when positive, is the shortest back-off still running: the
	// worker comes back then.
	wait time.Duration
}

// containerStart is one container to (re)start: a new attempt, or a
// created container whose start did not finish.
type containerStart struct {
	spec      *api.Container
	attempt   uint32
	createdID string
}

// statusCoalesceDelay is how long a status that the sync is about to make
// stale may go unwritten. Kubernetes' status manager writes from its own
// goroutine, so a status the pod worker replaces before that goroutine gets
// to it is never sent; with a runtime that starts containers at once, the
// Pending/ContainerCreating status lasts a few milliseconds and writing it
// would cost a request (and a watch event for every informer) per pod.
const statusCoalesceDelay = 100 * time.Millisecond

// syncPod is one pass of a pod's worker: report the pod's status as the
// runtime has it, then drive the runtime one step towards the spec.
// Kubernetes: Kubelet.SyncPod (status first, then the runtime's SyncPod).
//
// When the pass will change the runtime (and sync again at once to report
// it), the status from before the change is written only if the change
// takes longer than statusCoalesceDelay, or fails: so a container that
// starts slowly is seen Pending/ContainerCreating, and one that starts at
// once goes straight to Running, as Kubernetes' status manager would
// usually coalesce it.
func (kl *Kubelet) syncPod(ctx context.Context, pod *api.Pod, w *podWorker) (syncResult, error) {
	if pod.DeletionTimestamp != nil {
		return syncResult{}, kl.syncTerminatingPod(ctx, pod)
	}
	rp, err := kl.getRuntimePod(ctx, pod.UID)
	if err != nil {
		return syncResult{}, err
	}
	now := time.Now()
	status, wake := kl.generateAPIPodStatus(pod, rp, w, now)
	if isTerminal(status.Phase) {
		if err := kl.setPodStatus(ctx, pod, w, status); err != nil {
			return syncResult{}, err
		}
		// A finished pod keeps its status but not its sandbox (and IP).
		if rp.sandbox != nil {
			return syncResult{}, kl.runtime.StopPodSandbox(ctx, rp.sandbox.ID)
		}
		return syncResult{}, nil
	}
	actions := kl.computePodActions(pod, rp, w, now)
	if !actions.createSandbox && len(actions.start) == 0 {
		if err := kl.setPodStatus(ctx, pod, w, status); err != nil {
			return syncResult{}, err
		}
		return syncResult{after: earliest(actions.wait, wake)}, nil
	}

	// The status write waits for the actions, unless they take long.
	var statusErr error
	written := make(chan struct{})
	timer := time.AfterFunc(statusCoalesceDelay, func() {
		defer close(written)
		statusErr = kl.setPodStatus(ctx, pod, w, status)
	})
	changed, err := kl.executeActions(ctx, pod, rp, actions)
	if timer.Stop() {
		close(written)
		if err != nil {
			// Report what the pod is waiting in before the retry.
			statusErr = kl.setPodStatus(ctx, pod, w, status)
		}
	}
	<-written
	if err != nil {
		return syncResult{}, err
	}
	if statusErr != nil {
		return syncResult{}, statusErr
	}
	return syncResult{again: changed, after: earliest(actions.wait, wake)}, nil
}

// earliest is the sooner of two wake-ups, zero meaning none.
func earliest(a, b time.Duration) time.Duration {
	if a == 0 || (b > 0 && b < a) {
		return b
	}
	return a
}

// computePodActions compares the spec with the runtime: a missing sandbox
// is created, missing containers started, exited ones restarted if the
// restart policy wants it and their back-off allows.
func (kl *Kubelet) computePodActions(pod *api.Pod, rp *runtimePod, w *podWorker, now time.Time) podActions {
	var a podActions
	a.createSandbox = rp.sandbox == nil
	for i := range pod.Spec.Containers {
		spec := &pod.Spec.Containers[i]
		latest := rp.latest(spec.Name)
		switch {
		case latest == nil:
			a.start = append(a.start, containerStart{spec: spec})
		case a.createSandbox:
			// The sandbox went away under its containers: start over in a
			// new one, counting the restart.
			a.start = append(a.start, containerStart{spec: spec, attempt: latest.Attempt + 1})
		case latest.State == runtime.ContainerCreated:
			a.start = append(a.start, containerStart{spec: spec, attempt: latest.Attempt, createdID: latest.ID})
		case latest.State == runtime.ContainerExited && shouldRestart(pod.Spec.RestartPolicy, latest.ExitCode):
			key := backOffKey(pod, spec.Name)
			if in, wait, delay := kl.backOff.inBackOffSince(key, latest.FinishedAt, now); in {
				if w.backOffEvents[spec.Name] != latest.FinishedAt {
					if w.backOffEvents == nil {
						w.backOffEvents = map[string]time.Time{}
					}
					w.backOffEvents[spec.Name] = latest.FinishedAt
					kl.recorder.Eventf(pod, api.EventTypeWarning, EventBackOff,
						"Back-off restarting failed container %s in pod %s", spec.Name, podDesc(pod))
					kl.log.Info("container in back-off", "pod", podKey(pod), "container", spec.Name, "backOff", delay)
				}
				if a.wait == 0 || wait < a.wait {
					a.wait = wait
				}
				continue
			}
			kl.backOff.next(key, now)
			a.start = append(a.start, containerStart{spec: spec, attempt: latest.Attempt + 1})
		}
	}
	return a
}

// executeActions carries out a; it reports whether the runtime changed.
func (kl *Kubelet) executeActions(ctx context.Context, pod *api.Pod, rp *runtimePod, a podActions) (bool, error) {
	changed := false
	sandboxID := ""
	if rp.sandbox != nil {
		sandboxID = rp.sandbox.ID
	}
	if a.createSandbox {
		var attempt uint32
		if len(rp.sandboxes) > 0 {
			attempt = rp.sandboxes[0].Metadata.Attempt + 1
		}
		id, err := kl.runtime.RunPodSandbox(ctx, runtime.PodSandboxConfig{
			Metadata:    runtime.PodSandboxMetadata{Name: pod.Name, Namespace: pod.Namespace, UID: pod.UID, Attempt: attempt},
			Annotations: pod.Annotations,
		})
		if err != nil {
			kl.recorder.Eventf(pod, api.EventTypeWarning, "FailedCreatePodSandBox", "Failed to create pod sandbox: %v", err)
			return false, fmt.Errorf("run sandbox: %w", err)
		}
		sandboxID, changed = id, true
	}
	for _, s := range a.start {
		id := s.createdID
		if id == "" {
			kl.removeDeadContainers(ctx, rp, s.spec.Name)
			var err error
			id, err = kl.runtime.CreateContainer(ctx, sandboxID, runtime.ContainerConfig{
				Name: s.spec.Name, Image: s.spec.Image, Command: s.spec.Command, Args: s.spec.Args,
				Attempt: s.attempt, Annotations: pod.Annotations,
			})
			if err != nil {
				kl.recorder.Eventf(pod, api.EventTypeWarning, EventFailed, "Error: %v", err)
				return changed, fmt.Errorf("create container %s: %w", s.spec.Name, err)
			}
			changed = true
			kl.recorder.Eventf(pod, api.EventTypeNormal, EventCreated, "Created container: %s", s.spec.Name)
		}
		if err := kl.runtime.StartContainer(ctx, id); err != nil {
			kl.recorder.Eventf(pod, api.EventTypeWarning, EventFailed, "Error: %v", err)
			return true, fmt.Errorf("start container %s: %w", s.spec.Name, err)
		}
		changed = true
		kl.traceStarted(pod, s.spec.Name)
		kl.recorder.Eventf(pod, api.EventTypeNormal, EventStarted, "Started container %s", s.spec.Name)
		kl.log.Info("container started", "pod", podKey(pod), "container", s.spec.Name, "attempt", s.attempt)
	}
	return changed, nil
}

// removeDeadContainers keeps only the newest exited container of a name
// (the next status's lastState); older ones are garbage. Kubernetes leaves
// this to the container GC.
func (kl *Kubelet) removeDeadContainers(ctx context.Context, rp *runtimePod, name string) {
	for i, c := range rp.containers[name] {
		if i > 0 && c.State == runtime.ContainerExited {
			_ = kl.runtime.RemoveContainer(ctx, c.ID)
		}
	}
}

// syncTerminatingPod stops a pod the API is deleting, then finishes the
// deletion with grace 0: the kubelet is what turns a graceful delete into
// a removal. Kubernetes: SyncTerminatingPod, then the status manager's
// delete once the pod can be deleted (canBeDeleted).
func (kl *Kubelet) syncTerminatingPod(ctx context.Context, pod *api.Pod) error {
	grace := time.Duration(0)
	if pod.DeletionGracePeriodSeconds != nil {
		grace = time.Duration(*pod.DeletionGracePeriodSeconds) * time.Second
	}
	if err := kl.killPod(ctx, pod, grace, false); err != nil {
		return err
	}
	zero := int64(0)
	uid := pod.UID
	err := kl.pods.Namespace(pod.Namespace).Delete(ctx, pod.Name, api.DeleteOptions{
		GracePeriodSeconds: &zero,
		Preconditions:      &api.Preconditions{UID: &uid},
	})
	if err != nil && !api.IsNotFound(err) && !api.IsConflict(err) {
		return fmt.Errorf("delete pod: %w", err)
	}
	kl.log.Info("pod deleted", "pod", podKey(pod))
	return nil
}

// removePod cleans up after a pod that is gone from the API (deleted by us,
// force-deleted, or never known: an orphan the PLEG found).
// Kubernetes: HandlePodRemoves and HandlePodCleanups.
func (kl *Kubelet) removePod(ctx context.Context, pod *api.Pod) {
	if err := kl.killPod(ctx, pod, 0, true); err != nil && ctx.Err() == nil {
		kl.log.Warn("cleaning up removed pod", "pod", podKey(pod), "err", err)
	}
	kl.backOff.forgetPod(pod.UID)
}

// killPod stops every running container of the pod and its sandbox, and
// with remove also forgets them. Kubernetes: KillPod.
func (kl *Kubelet) killPod(ctx context.Context, pod *api.Pod, grace time.Duration, remove bool) error {
	rp, err := kl.getRuntimePod(ctx, pod.UID)
	if err != nil {
		return err
	}
	for name, cs := range rp.containers {
		for _, c := range cs {
			if c.State == runtime.ContainerExited {
				continue
			}
			kl.recorder.Eventf(pod, api.EventTypeNormal, EventKilling, "Stopping container %s", name)
			if err := kl.runtime.StopContainer(ctx, c.ID, grace); err != nil {
				return fmt.Errorf("stop container %s: %w", name, err)
			}
		}
	}
	for _, sb := range rp.sandboxes {
		stop := kl.runtime.StopPodSandbox
		if remove {
			stop = kl.runtime.RemovePodSandbox
		}
		if err := stop(ctx, sb.ID); err != nil {
			return fmt.Errorf("stop sandbox: %w", err)
		}
	}
	return nil
}

// shouldRestart applies the restart policy to an exited container.
func shouldRestart(policy api.RestartPolicy, exitCode int32) bool {
	switch policy {
	case api.RestartPolicyNever:
		return false
	case api.RestartPolicyOnFailure:
		return exitCode != 0
	default:
		return true
	}
}

func backOffKey(pod *api.Pod, container string) string { return pod.UID + "/" + container }

func podKey(pod *api.Pod) string { return pod.Namespace + "/" + pod.Name }

// podDesc is how Kubernetes names a pod in messages (format.Pod).
func podDesc(pod *api.Pod) string {
	return fmt.Sprintf("%s_%s(%s)", pod.Name, pod.Namespace, pod.UID)
}

func isTerminal(phase api.PodPhase) bool {
	return phase == api.PodSucceeded || phase == api.PodFailed
}
