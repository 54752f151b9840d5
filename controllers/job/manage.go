package job

import (
	"context"
	"errors"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/controllers/replicaset"
)

// Events of the pods the controller creates and deletes (Kubernetes:
// controller_utils.go, RealPodControl).
const (
	SuccessfulCreateReason = "SuccessfulCreate"
	FailedCreateReason     = "FailedCreate"
	SuccessfulDeleteReason = "SuccessfulDelete"
	FailedDeleteReason     = "FailedDelete"
)

// manageJob creates or deletes pods so that as many run as the Job wants:
// parallelism, but no more than the completions still missing (none while
// suspended). Deletions go first; a sync never does both. Replacements of
// failed pods wait for the pod-failure back-off. It returns the number of
// active pods after its actions. Kubernetes: job_controller.go, manageJob.
func (jm *Controller) manageJob(ctx context.Context, job *api.Job, jobCtx *syncJobCtx) (int32, error) {
	active := int32(len(jobCtx.activePods))
	key, _ := api.MetaNamespaceKeyFunc(job)

	if jobSuspended(job) {
		toDelete := activePodsForRemoval(job, jobCtx.activePods, int(active))
		return jm.deleteForManage(ctx, job, key, jobCtx, active, toDelete)
	}

	parallelism := *job.Spec.Parallelism
	var wantActive int32
	if job.Spec.Completions == nil {
		// A work queue: once one pod succeeded, the rest may finish but no
		// new ones start.
		wantActive = parallelism
		if jobCtx.succeeded > 0 {
			wantActive = active
		}
	} else {
		wantActive = max(min(*job.Spec.Completions-jobCtx.succeeded, parallelism), 0)
	}

	toDelete := activePodsForRemoval(job, jobCtx.activePods, int(max(active-wantActive, 0)))
	if len(toDelete) > MaxPodCreateDeletePerSync {
		toDelete = toDelete[:MaxPodCreateDeletePerSync]
	}
	if len(toDelete) > 0 {
		jm.log.Info("too many pods running", "key", key, "deleting", len(toDelete), "want", wantActive)
		return jm.deleteForManage(ctx, job, key, jobCtx, active, toDelete)
	}

	var terminating int32
	if onlyReplaceFailedPods(job) {
		terminating = jobCtx.terminating
	}
	diff := wantActive - terminating - active
	if diff <= 0 {
		return active, nil
	}
	if wait := jobCtx.newBackoffRecord.getRemainingTime(jm.clock.Now(), jm.opts.PodFailureBackOff, jm.opts.MaxPodFailureBackOff); wait > 0 {
		jm.log.Info("pod failure back-off", "key", key, "wait", wait)
		jm.enqueueSyncJobWithDelay(job, wait)
		return active, nil
	}
	diff = min(diff, int32(MaxPodCreateDeletePerSync))
	var indexes []int
	if isIndexedJob(job) {
		indexes = firstPendingIndexes(jobCtx, int(diff), int(*job.Spec.Completions))
		diff = int32(len(indexes))
	}
	if diff == 0 {
		return active, nil
	}
	jm.log.Info("too few pods running", "key", key, "want", wantActive, "creating", diff)
	created, err := jm.createPods(ctx, job, key, int(diff), indexes)
	return active + int32(created), err
}

// deleteForManage deletes pods the Job no longer wants, with expectations
// set first: the informer may report the deletions before the calls return.
func (jm *Controller) deleteForManage(ctx context.Context, job *api.Job, key string, jobCtx *syncJobCtx, active int32, pods []*api.Pod) (int32, error) {
	podKeys := make([]string, len(pods))
	for i, p := range pods {
		podKeys[i] = replicaset.PodKey(p)
	}
	jm.expectations.ExpectDeletions(key, podKeys)
	removedReady, removed, err := jm.deleteJobPods(ctx, job, key, pods)
	jobCtx.terminating += removed
	jobCtx.ready -= removedReady
	return active - removed, err
}

// deleteJobPods deletes pods that must not count as failures (suspension,
// scale-down): each loses its tracking finalizer first, so the tracking
// never sees it.
func (jm *Controller) deleteJobPods(ctx context.Context, job *api.Job, key string, pods []*api.Pod) (int32, int32, error) {
	var deletedReady, deleted atomic.Int32
	errCh := make(chan error, len(pods))
	var wg sync.WaitGroup
	for _, p := range pods {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fail := func(err error) {
				// No deletion event will come for it.
				jm.expectations.DeletionObserved(key, replicaset.PodKey(p))
				if !api.IsNotFound(err) {
					errCh <- err
				}
			}
			if patch := removeTrackingFinalizerPatch(p); patch != nil {
				if _, err := jm.pods.Namespace(p.Namespace).Patch(ctx, p.Name, client.StrategicMergePatchType, patch, client.PatchOptions{}); err != nil {
					fail(err)
					return
				}
			}
			if err := jm.deletePodOf(ctx, job, p); err != nil {
				fail(err)
				if !api.IsNotFound(err) {
					return
				}
			}
			deleted.Add(1)
			if replicaset.IsPodReady(p) {
				deletedReady.Add(1)
			}
		}()
	}
	wg.Wait()
	return deletedReady.Load(), deleted.Load(), firstError(errCh)
}

// createPods creates n pods (for the given indexes, if Indexed) in slow-start
// batches of 1, 2, 4, ..., stopping after a batch with a failure, and
// returns how many it created.
func (jm *Controller) createPods(ctx context.Context, job *api.Job, key string, n int, indexes []int) (int, error) {
	jm.expectations.ExpectCreations(key, n)
	template := job.Spec.Template.DeepCopy()
	if isIndexedJob(job) {
		addCompletionIndexEnvVariables(template)
	}
	if !containsString(template.Finalizers, api.JobTrackingFinalizer) {
		template.Finalizers = append(template.Finalizers, api.JobTrackingFinalizer)
	}
	var created atomic.Int32
	var errs []error
	var mu sync.Mutex
	remaining := n
	for batch := min(remaining, replicaset.SlowStartInitialBatchSize); remaining > 0; batch = min(2*batch, remaining) {
		var wg sync.WaitGroup
		failed := false
		for range batch {
			ix := unknownCompletionIndex
			if len(indexes) > 0 {
				ix, indexes = indexes[0], indexes[1:]
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := jm.createPod(ctx, job, template, ix)
				if err != nil && hasStatusCause(err, api.CauseTypeNamespaceTerminating) {
					err = nil // the namespace is going away: nothing to retry
				}
				if err != nil {
					jm.expectations.CreationObserved(key) // it will never be observed
					mu.Lock()
					errs, failed = append(errs, err), true
					mu.Unlock()
					return
				}
				created.Add(1)
			}()
		}
		wg.Wait()
		remaining -= batch
		if failed {
			// The pods never attempted will never be observed either.
			for range remaining {
				jm.expectations.CreationObserved(key)
			}
			break
		}
	}
	if len(errs) > 0 {
		return int(created.Load()), errs[0]
	}
	return int(created.Load()), nil
}

// createPod creates one pod from the template, with index ix unless it is
// unknownCompletionIndex, and reports it as an event.
// Kubernetes: controller_utils.go, RealPodControl.CreatePodsWithGenerateName.
func (jm *Controller) createPod(ctx context.Context, job *api.Job, template *api.PodTemplateSpec, ix int) error {
	t := template
	generateName := job.Name + "-"
	if ix != unknownCompletionIndex {
		t = template.DeepCopy()
		setCompletionIndex(t, job.Name, ix)
		generateName = podGenerateNameWithIndex(job.Name, ix)
	}
	yes := true
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{
			GenerateName: generateName,
			Namespace:    job.Namespace,
			Labels:       t.Labels,
			Annotations:  t.Annotations,
			Finalizers:   t.Finalizers,
			OwnerReferences: []api.OwnerReference{{
				APIVersion: "batch/v1", Kind: "Job", Name: job.Name, UID: job.UID,
				Controller: &yes, BlockOwnerDeletion: &yes,
			}},
		},
		Spec: t.Spec,
	}
	created, err := jm.pods.Namespace(job.Namespace).Create(ctx, pod, client.CreateOptions{})
	if err != nil {
		jm.recorder.Eventf(job, api.EventTypeWarning, FailedCreateReason, "Error creating: %v", err)
		return err
	}
	jm.log.Info("created pod", "key", job.Namespace+"/"+job.Name, "pod", created.Name)
	jm.recorder.Eventf(job, api.EventTypeNormal, SuccessfulCreateReason, "Created pod: %v", created.Name)
	return nil
}

// deletePodOf deletes one pod of the Job and reports it as an event.
func (jm *Controller) deletePodOf(ctx context.Context, job *api.Job, pod *api.Pod) error {
	err := jm.pods.Namespace(pod.Namespace).Delete(ctx, pod.Name, api.DeleteOptions{})
	if err != nil {
		if !api.IsNotFound(err) {
			jm.recorder.Eventf(job, api.EventTypeWarning, FailedDeleteReason, "Error deleting: %v", err)
		}
		return err
	}
	jm.log.Info("deleted pod", "key", job.Namespace+"/"+job.Name, "pod", pod.Name)
	jm.recorder.Eventf(job, api.EventTypeNormal, SuccessfulDeleteReason, "Deleted pod: %v", pod.Name)
	return nil
}

// activePodsForRemoval picks at least rmAtLeast pods to delete: for an
// Indexed Job first every pod with a repeated, missing or out-of-range
// index, then the cheapest to lose (not ready before ready, unscheduled
// before scheduled, pending before running).
func activePodsForRemoval(job *api.Job, pods []*api.Pod, rmAtLeast int) []*api.Pod {
	var rm, left []*api.Pod
	if isIndexedJob(job) {
		rm, left = appendDuplicatedIndexPodsForRemoval(nil, nil, pods, int(*job.Spec.Completions))
	} else {
		left = append(left, pods...)
	}
	if len(rm) < rmAtLeast {
		sort.SliceStable(left, func(i, j int) bool { return activePodLess(left[i], left[j]) })
		rm = append(rm, left[:min(rmAtLeast-len(rm), len(left))]...)
	}
	return rm
}

// activePodLess orders pods from the first to delete to the last: not
// scheduled, pending before unknown before running, not ready, ready for
// less time, more container restarts, newer.
// Kubernetes: controller_utils.go, ActivePods.Less.
func activePodLess(a, b *api.Pod) bool {
	if a.Spec.NodeName != b.Spec.NodeName && (a.Spec.NodeName == "" || b.Spec.NodeName == "") {
		return a.Spec.NodeName == ""
	}
	phase := map[api.PodPhase]int{api.PodPending: 0, api.PodUnknown: 1, api.PodRunning: 2}
	if phase[a.Status.Phase] != phase[b.Status.Phase] {
		return phase[a.Status.Phase] < phase[b.Status.Phase]
	}
	readyA, readyB := replicaset.IsPodReady(a), replicaset.IsPodReady(b)
	if readyA != readyB {
		return !readyA
	}
	if readyA {
		ta, tb := readySince(a), readySince(b)
		if !ta.Equal(tb.Time) {
			return afterOrZero(ta.Time, tb.Time)
		}
	}
	if ra, rb := maxContainerRestarts(a), maxContainerRestarts(b); ra != rb {
		return ra > rb
	}
	if !a.CreationTimestamp.Equal(b.CreationTimestamp.Time) {
		return afterOrZero(a.CreationTimestamp.Time, b.CreationTimestamp.Time)
	}
	return false
}

// afterOrZero: a zero time sorts first, then the later time.
func afterOrZero(a, b time.Time) bool {
	if a.IsZero() || b.IsZero() {
		return a.IsZero()
	}
	return a.After(b)
}

func readySince(p *api.Pod) api.Time {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			return c.LastTransitionTime
		}
	}
	return api.Time{}
}

func maxContainerRestarts(p *api.Pod) int32 {
	var n int32
	for _, cs := range p.Status.ContainerStatuses {
		n = max(n, cs.RestartCount)
	}
	return n
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// hasStatusCause reports whether err is an API error carrying cause.
func hasStatusCause(err error, cause api.CauseType) bool {
	var se *api.StatusError
	if !errors.As(err, &se) || se.ErrStatus.Details == nil {
		return false
	}
	for _, c := range se.ErrStatus.Details.Causes {
		if c.Type == cause {
			return true
		}
	}
	return false
}
