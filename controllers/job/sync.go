package job

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"kubeloop/api"
	"kubeloop/controllers/replicaset"
)

// syncJobCtx is what one sync knows about one Job.
type syncJobCtx struct {
	job *api.Job
	// pods are the Job's pods (claimed); activePods those neither finished
	// nor terminating.
	pods       []*api.Pod
	activePods []*api.Pod
	// finishedCondition, when set, is the condition this sync moves the Job
	// towards: FailureTarget or SuccessCriteriaMet, then Failed or Complete.
	finishedCondition *api.JobCondition
	// succeeded and failed count the counted, the uncounted and the newly
	// finished pods.
	succeeded, failed int32
	// The completed indexes before and after this sync (Indexed Jobs).
	prevSucceededIndexes, succeededIndexes orderedIntervals
	newBackoffRecord                       backoffRecord
	// expectedRmFinalizers: pods whose finalizer removal is in flight; they
	// were counted by an earlier sync.
	expectedRmFinalizers map[string]bool
	uncounted            *uncountedTerminatedPods
	terminating, ready   int32
}

// syncJob is the reconcile: count the Job's finished pods, decide whether
// it has failed (backoff limit, deadline) or succeeded, create or delete
// pods towards parallelism, and write the status, counting each finished
// pod exactly once through its tracking finalizer.
// Kubernetes: job_controller.go, syncJob.
func (jm *Controller) syncJob(ctx context.Context, key string) error {
	ns, name, err := api.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	shared, err := jm.jobLister.Namespace(ns).Get(name)
	if api.IsNotFound(err) {
		jm.log.Info("job deleted", "key", key)
		jm.expectations.DeleteExpectations(key)
		jm.finalizerExpectations.deleteExpectations(key)
		jm.podBackoffStore.removeBackoffRecord(key)
		return nil
	}
	if err != nil {
		return err
	}
	if managedByExternalController(shared) {
		return nil
	}
	job := shared.DeepCopy()
	if IsJobFinished(job) {
		jm.podBackoffStore.removeBackoffRecord(key)
		return nil
	}
	if m := job.Spec.CompletionMode; m != nil && *m != api.NonIndexedCompletion && *m != api.IndexedCompletion {
		jm.recorder.Event(job, api.EventTypeWarning, "UnknownCompletionMode", "Skipped Job sync because completion mode is unknown")
		return nil
	}
	if job.Spec.Parallelism == nil || job.Spec.BackoffLimit == nil || (isIndexedJob(job) && job.Spec.Completions == nil) {
		// The apiserver defaults and validates these; without them there is
		// nothing sensible to do.
		jm.log.Error("job spec not defaulted", "key", key)
		return nil
	}
	if job.Status.UncountedTerminatedPods == nil {
		job.Status.UncountedTerminatedPods = &api.UncountedTerminatedPods{}
	}

	// Read the expectations before the pods: a pod that lands in between
	// only defers managing to the next sync.
	satisfiedExpectations := jm.expectations.SatisfiedExpectations(key)
	pods, err := jm.getPodsForJob(ctx, job)
	if err != nil {
		return err
	}
	jobCtx := &syncJobCtx{
		job:                  job,
		pods:                 pods,
		activePods:           replicaset.FilterActivePods(pods),
		uncounted:            newUncountedTerminatedPods(*job.Status.UncountedTerminatedPods),
		expectedRmFinalizers: jm.finalizerExpectations.getExpectedUIDs(key),
		terminating:          int32(len(terminatingPods(pods))),
	}
	jobCtx.ready = countReadyPods(jobCtx.activePods)
	active := int32(len(jobCtx.activePods))
	newSucceeded, newFailed := getNewFinishedPods(jobCtx)
	jobCtx.succeeded = job.Status.Succeeded + int32(len(newSucceeded)) + int32(len(jobCtx.uncounted.succeeded))
	jobCtx.failed = job.Status.Failed + int32(len(newFailed)) + int32(len(jobCtx.uncounted.failed))

	if job.Status.StartTime == nil && !jobSuspended(job) {
		now := api.NewTime(jm.clock.Now())
		job.Status.StartTime = &now
	}
	jobCtx.newBackoffRecord = jm.podBackoffStore.newBackoffRecord(key, newSucceeded, newFailed)

	// A condition from an earlier sync already decided the outcome; only
	// the counting is left.
	jobCtx.finishedCondition = successCriteriaMet(job)
	if jobCtx.finishedCondition == nil {
		if ft := findConditionByType(job.Status.Conditions, api.JobFailureTarget); ft != nil && ft.Status == api.ConditionTrue {
			jobCtx.finishedCondition = newCondition(api.JobFailed, api.ConditionTrue, ft.Reason, ft.Message, jm.clock.Now())
		}
	}
	if jobCtx.finishedCondition == nil {
		switch {
		case jobCtx.failed > *job.Spec.BackoffLimit || pastBackoffLimitOnFailure(job, pods):
			jobCtx.finishedCondition = jm.newFailureCondition(api.JobReasonBackoffLimitExceeded, messageBackoffLimitExceeded)
		case jm.pastActiveDeadline(job):
			jobCtx.finishedCondition = jm.newFailureCondition(api.JobReasonDeadlineExceeded, messageDeadlineExceeded)
		case job.Spec.ActiveDeadlineSeconds != nil && !jobSuspended(job):
			left := time.Duration(*job.Spec.ActiveDeadlineSeconds)*time.Second - jm.clock.Since(job.Status.StartTime.Time)
			jm.log.Debug("will check the deadline", "key", key, "in", left)
			jm.queue.AddAfter(key, left)
		}
	}
	if isIndexedJob(job) {
		jobCtx.prevSucceededIndexes, jobCtx.succeededIndexes = calculateSucceededIndexes(job, pods)
		jobCtx.succeeded = int32(jobCtx.succeededIndexes.total())
	}

	var manageJobErr error
	suspendCondChanged := false
	if jobCtx.finishedCondition != nil {
		// Failing (or already succeeded): stop what still runs.
		deletedReady, deleted, err := jm.deleteActivePods(ctx, job, jobCtx.activePods)
		if deleted != active || !satisfiedExpectations {
			// Some pods may still run, or be missing from the cache: not
			// finished yet.
			jobCtx.finishedCondition = nil
		}
		active -= deleted
		jobCtx.terminating += deleted
		jobCtx.ready -= deletedReady
		manageJobErr = err
	} else {
		manageJobCalled := false
		if satisfiedExpectations && job.DeletionTimestamp == nil {
			active, manageJobErr = jm.manageJob(ctx, job, jobCtx)
			manageJobCalled = true
		}
		var complete bool
		if job.Spec.Completions == nil {
			// A work queue: done when any pod succeeded and none is left.
			complete = jobCtx.succeeded > 0 && active == 0
		} else {
			complete = jobCtx.succeeded >= *job.Spec.Completions && active == 0
		}
		switch {
		case complete:
			jobCtx.finishedCondition = jm.newSuccessCondition()
		case manageJobCalled:
			suspendCondChanged = jm.syncSuspendedCondition(job)
		}
	}

	needsStatusUpdate := suspendCondChanged || active != job.Status.Active ||
		!int32PtrEqual(job.Status.Ready, jobCtx.ready) || !int32PtrEqual(job.Status.Terminating, jobCtx.terminating)
	job.Status.Active = active
	job.Status.Ready = &jobCtx.ready
	job.Status.Terminating = &jobCtx.terminating
	if err := jm.trackJobStatusAndRemoveFinalizers(ctx, jobCtx, needsStatusUpdate); err != nil {
		return fmt.Errorf("tracking status: %w", err)
	}
	return manageJobErr
}

// syncSuspendedCondition keeps the Suspended condition in step with
// spec.suspend; a resumed Job starts its deadline clock again.
func (jm *Controller) syncSuspendedCondition(job *api.Job) bool {
	now := jm.clock.Now()
	var changed bool
	if jobSuspended(job) {
		job.Status.Conditions, changed = ensureJobConditionStatus(job.Status.Conditions, api.JobSuspended, api.ConditionTrue, reasonJobSuspended, messageSuspended, now)
		if changed {
			jm.recorder.Event(job, api.EventTypeNormal, "Suspended", messageSuspended)
		}
		return changed
	}
	job.Status.Conditions, changed = ensureJobConditionStatus(job.Status.Conditions, api.JobSuspended, api.ConditionFalse, reasonJobResumed, messageResumed, now)
	if changed {
		jm.recorder.Event(job, api.EventTypeNormal, "Resumed", messageResumed)
		// activeDeadlineSeconds counts the time the Job runs continuously.
		t := api.NewTime(now)
		job.Status.StartTime = &t
	}
	return changed
}

// deleteActivePods deletes the pods of a Job that is finishing, keeping
// their finalizers: the tracking below counts them as failed, then lets
// them go. It returns how many ready pods and how many pods it deleted.
func (jm *Controller) deleteActivePods(ctx context.Context, job *api.Job, pods []*api.Pod) (int32, int32, error) {
	var deletedReady, deleted atomic.Int32
	errCh := make(chan error, len(pods))
	var wg sync.WaitGroup
	for _, p := range pods {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := jm.deletePodOf(ctx, job, p); err != nil && !api.IsNotFound(err) {
				errCh <- err
				return
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

// getNewFinishedPods returns the succeeded and failed pods not yet counted
// in any way: they still hold the finalizer, are not in the uncounted
// lists and have no finalizer removal in flight.
func getNewFinishedPods(jobCtx *syncJobCtx) (succeeded, failed []*api.Pod) {
	succeeded = validPodsWithFilter(jobCtx, jobCtx.uncounted.succeeded, func(p *api.Pod) bool {
		return p.Status.Phase == api.PodSucceeded
	})
	failed = validPodsWithFilter(jobCtx, jobCtx.uncounted.failed, func(p *api.Pod) bool {
		return isPodFailed(p, jobCtx.job)
	})
	return succeeded, failed
}

func validPodsWithFilter(jobCtx *syncJobCtx, uncounted map[string]bool, keep func(*api.Pod) bool) []*api.Pod {
	var out []*api.Pod
	for _, p := range jobCtx.pods {
		if !hasJobTrackingFinalizer(p) || uncounted[p.UID] || jobCtx.expectedRmFinalizers[p.UID] {
			continue
		}
		if isIndexedJob(jobCtx.job) {
			if ix := getCompletionIndex(p.Annotations); ix == unknownCompletionIndex || ix >= int(*jobCtx.job.Spec.Completions) {
				continue
			}
		}
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

// isPodFailed: the pod failed, or (unless only failed pods are replaced)
// it is being deleted before it could succeed — an orphan the pod garbage
// collector removes never reaches the Failed phase.
func isPodFailed(p *api.Pod, job *api.Job) bool {
	if p.Status.Phase == api.PodFailed {
		return true
	}
	if onlyReplaceFailedPods(job) {
		return false
	}
	return p.DeletionTimestamp != nil && p.Status.Phase != api.PodSucceeded
}

// onlyReplaceFailedPods: podReplacementPolicy Failed (implied by a pod
// failure policy) waits for a terminating pod to fail before replacing it.
func onlyReplaceFailedPods(job *api.Job) bool {
	return (job.Spec.PodReplacementPolicy != nil && *job.Spec.PodReplacementPolicy == api.Failed) ||
		job.Spec.PodFailurePolicy != nil
}

// pastBackoffLimitOnFailure: with restartPolicy OnFailure the kubelet
// restarts containers in place, so the failures are the restart counts of
// the running and pending pods.
func pastBackoffLimitOnFailure(job *api.Job, pods []*api.Pod) bool {
	if job.Spec.Template.Spec.RestartPolicy != api.RestartPolicyOnFailure {
		return false
	}
	var restarts int32
	for _, p := range pods {
		if p.Status.Phase != api.PodRunning && p.Status.Phase != api.PodPending {
			continue
		}
		for _, cs := range p.Status.InitContainerStatuses {
			restarts += cs.RestartCount
		}
		for _, cs := range p.Status.ContainerStatuses {
			restarts += cs.RestartCount
		}
	}
	if *job.Spec.BackoffLimit == 0 {
		return restarts > 0
	}
	return restarts >= *job.Spec.BackoffLimit
}

// pastActiveDeadline: the Job has run activeDeadlineSeconds since it
// started (or was last resumed). A suspended Job never passes it.
func (jm *Controller) pastActiveDeadline(job *api.Job) bool {
	if job.Spec.ActiveDeadlineSeconds == nil || job.Status.StartTime == nil || jobSuspended(job) {
		return false
	}
	return jm.clock.Since(job.Status.StartTime.Time) >= time.Duration(*job.Spec.ActiveDeadlineSeconds)*time.Second
}

func jobSuspended(job *api.Job) bool { return job.Spec.Suspend != nil && *job.Spec.Suspend }

func int32PtrEqual(p *int32, v int32) bool { return p != nil && *p == v }

func firstError(errCh chan error) error {
	select {
	case err := <-errCh:
		return err
	default:
		return nil
	}
}
