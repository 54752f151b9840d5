package job

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"kubeloop/api"
	"kubeloop/client"
)

// trackJobStatusAndRemoveFinalizers counts finished pods exactly once, in
// two steps that each survive a crash:
//
//  1. a finished pod that still has the tracking finalizer goes into
//     status.uncountedTerminatedPods (by UID), and the status is written;
//  2. then its finalizer is removed, and a pod whose finalizer is gone
//     moves from the uncounted lists into status.succeeded or failed.
//
// A pod is thus always in exactly one place: with a finalizer and not
// listed (not counted yet), listed (being counted), or neither (counted).
// Deleting a pod cannot lose its count: the finalizer keeps it until
// step 1 has been written. The interim FailureTarget or SuccessCriteriaMet
// condition is written with step 1, the terminal Failed or Complete once
// nothing is uncounted or terminating. At most MaxUncountedPods are
// handled per sync. Kubernetes: job_controller.go,
// trackJobStatusAndRemoveFinalizers.
func (jm *Controller) trackJobStatusAndRemoveFinalizers(ctx context.Context, jobCtx *syncJobCtx, needsFlush bool) error {
	job := jobCtx.job
	isIndexed := isIndexedJob(job)
	if isIndexed {
		// Completed indexes are added in order.
		sort.SliceStable(jobCtx.pods, func(i, j int) bool {
			return getCompletionIndex(jobCtx.pods[i].Annotations) < getCompletionIndex(jobCtx.pods[j].Annotations)
		})
	}
	uidsWithFinalizer := make(map[string]bool, len(jobCtx.pods))
	for _, p := range jobCtx.pods {
		if hasJobTrackingFinalizer(p) && !jobCtx.expectedRmFinalizers[p.UID] {
			uidsWithFinalizer[p.UID] = true
		}
	}
	if cleanUncountedPodsWithoutFinalizers(&job.Status, uidsWithFinalizer) {
		needsFlush = true
	}

	uncounted := job.Status.UncountedTerminatedPods
	var podsToRemoveFinalizer []*api.Pod
	var newSucceededIndexes []int
	reachedMaxUncountedPods := false
	for _, pod := range jobCtx.pods {
		if !hasJobTrackingFinalizer(pod) || jobCtx.expectedRmFinalizers[pod.UID] {
			continue // counted by an earlier sync
		}
		failed := isPodFailed(pod, job)
		if !canRemoveFinalizer(jobCtx, pod, failed) {
			continue
		}
		podsToRemoveFinalizer = append(podsToRemoveFinalizer, pod)
		ix := getCompletionIndex(pod.Annotations)
		switch {
		case pod.Status.Phase == api.PodSucceeded && !jobCtx.uncounted.failed[pod.UID]:
			if isIndexed {
				// The index is enough to never count a success twice.
				if ix != unknownCompletionIndex && ix < int(*job.Spec.Completions) && !jobCtx.prevSucceededIndexes.has(ix) {
					newSucceededIndexes = append(newSucceededIndexes, ix)
					needsFlush = true
				}
			} else if !jobCtx.uncounted.succeeded[pod.UID] {
				uncounted.Succeeded = append(uncounted.Succeeded, pod.UID)
				needsFlush = true
			}
		case failed || (jobCtx.finishedCondition != nil && !isSuccessCriteriaMet(jobCtx.finishedCondition)):
			// A failing Job counts every pod it stops as failed.
			if !jobCtx.uncounted.failed[pod.UID] && (!isIndexed || (ix != unknownCompletionIndex && ix < int(*job.Spec.Completions))) {
				uncounted.Failed = append(uncounted.Failed, pod.UID)
				needsFlush = true
			}
		}
		if len(newSucceededIndexes)+len(uncounted.Succeeded)+len(uncounted.Failed) >= MaxUncountedPods {
			// The rest waits for the next sync, which the status and pod
			// updates of this one trigger.
			reachedMaxUncountedPods = true
			break
		}
	}
	if isIndexed {
		jobCtx.succeededIndexes = jobCtx.succeededIndexes.withOrderedIndexes(newSucceededIndexes)
		if s := jobCtx.succeededIndexes.String(); s != job.Status.CompletedIndexes {
			job.Status.CompletedIndexes = s
			needsFlush = true
		}
		job.Status.Succeeded = int32(jobCtx.succeededIndexes.total())
	}
	if c := jobCtx.finishedCondition; c != nil && c.Type == api.JobFailureTarget {
		// Record the verdict before letting go of the pods; Failed follows.
		job.Status.Conditions = append(job.Status.Conditions, *c)
		needsFlush = true
		jobCtx.finishedCondition = newCondition(api.JobFailed, api.ConditionTrue, c.Reason, c.Message, jm.clock.Now())
	}
	if c := jobCtx.finishedCondition; isSuccessCriteriaMet(c) {
		if successCriteriaMet(job) == nil {
			job.Status.Conditions = append(job.Status.Conditions, *c)
			needsFlush = true
		}
		jobCtx.finishedCondition = newCondition(api.JobComplete, api.ConditionTrue, c.Reason, c.Message, jm.clock.Now())
	}

	var err error
	if needsFlush, err = jm.flushUncountedAndRemoveFinalizers(ctx, jobCtx, podsToRemoveFinalizer, uidsWithFinalizer, needsFlush); err != nil {
		return err
	}
	finished := !reachedMaxUncountedPods && jm.enactJobFinished(jobCtx)
	if !needsFlush && !finished {
		return nil
	}
	updated, err := jm.updateJobStatus(ctx, jobCtx.job)
	if err != nil {
		return fmt.Errorf("removing uncounted pods from status: %w", err)
	}
	jobCtx.job = updated
	if finished {
		jm.recordJobFinished(updated, jobCtx.finishedCondition)
	}
	return nil
}

// canRemoveFinalizer: a pod may be let go once it succeeded or failed, or
// when the whole Job is finishing or being deleted.
func canRemoveFinalizer(jobCtx *syncJobCtx, pod *api.Pod, failed bool) bool {
	return jobCtx.job.DeletionTimestamp != nil || jobCtx.finishedCondition != nil ||
		pod.Status.Phase == api.PodSucceeded || failed
}

// flushUncountedAndRemoveFinalizers writes the status with the newly
// uncounted pods (step 1), records the back-off, removes the finalizers
// (step 2) and moves the pods whose removal succeeded into the counters. If
// some removals failed it writes that partial progress. It returns whether
// the status still has changes to write.
func (jm *Controller) flushUncountedAndRemoveFinalizers(ctx context.Context, jobCtx *syncJobCtx, pods []*api.Pod, uidsWithFinalizer map[string]bool, needsFlush bool) (bool, error) {
	if needsFlush {
		updated, err := jm.updateJobStatus(ctx, jobCtx.job)
		if err != nil {
			return needsFlush, fmt.Errorf("adding uncounted pods to status: %w", err)
		}
		jobCtx.job = updated
		// Only once the failures are in the status do they count towards
		// the back-off: a failed write is retried with the same pods.
		jm.podBackoffStore.updateBackoffRecord(jobCtx.newBackoffRecord)
		needsFlush = false
	}
	key, _ := api.MetaNamespaceKeyFunc(jobCtx.job)
	var rmErr error
	if len(pods) > 0 {
		var removed []bool
		removed, rmErr = jm.removeTrackingFinalizerFromPods(ctx, key, pods)
		for i, p := range pods {
			if removed[i] {
				delete(uidsWithFinalizer, p.UID)
			}
		}
	}
	if cleanUncountedPodsWithoutFinalizers(&jobCtx.job.Status, uidsWithFinalizer) {
		needsFlush = true
	}
	if rmErr != nil && needsFlush {
		updated, err := jm.updateJobStatus(ctx, jobCtx.job)
		if err != nil {
			return needsFlush, fmt.Errorf("removing uncounted pods from status: %w", err)
		}
		jobCtx.job = updated
	}
	return needsFlush, rmErr
}

// removeTrackingFinalizerFromPods patches the finalizer off each pod,
// expecting to see every removal in the cache first; it reports which
// removals succeeded (a pod already gone counts as removed).
func (jm *Controller) removeTrackingFinalizerFromPods(ctx context.Context, key string, pods []*api.Pod) ([]bool, error) {
	uids := make([]string, len(pods))
	for i, p := range pods {
		uids[i] = p.UID
	}
	jm.finalizerExpectations.expectFinalizersRemoved(key, uids)
	removed := make([]bool, len(pods))
	errCh := make(chan error, len(pods))
	var wg sync.WaitGroup
	for i, p := range pods {
		wg.Add(1)
		go func() {
			defer wg.Done()
			patch := removeTrackingFinalizerPatch(p)
			if patch == nil {
				return
			}
			_, err := jm.pods.Namespace(p.Namespace).Patch(ctx, p.Name, client.StrategicMergePatchType, patch, client.PatchOptions{})
			if err != nil {
				// No update will show the removal.
				jm.finalizerExpectations.finalizerRemovalObserved(key, p.UID)
				if !api.IsNotFound(err) {
					errCh <- fmt.Errorf("removing tracking finalizer: %w", err)
					return
				}
			}
			removed[i] = true
		}()
	}
	wg.Wait()
	return removed, firstError(errCh)
}

// enactJobFinished writes the terminal condition, once no pod is waiting
// to be counted and none is still terminating. It reports whether it did.
func (jm *Controller) enactJobFinished(jobCtx *syncJobCtx) bool {
	c := jobCtx.finishedCondition
	if c == nil {
		return false
	}
	job := jobCtx.job
	if u := job.Status.UncountedTerminatedPods; u != nil && len(u.Succeeded)+len(u.Failed) > 0 {
		jm.log.Debug("not finished yet: uncounted pods", "key", job.Namespace+"/"+job.Name, "condition", c.Type)
		return false
	}
	if jobCtx.terminating > 0 {
		jm.log.Debug("not finished yet: terminating pods", "key", job.Namespace+"/"+job.Name, "condition", c.Type, "terminating", jobCtx.terminating)
		return false
	}
	job.Status.Conditions, _ = ensureJobConditionStatus(job.Status.Conditions, c.Type, c.Status, c.Reason, c.Message, jm.clock.Now())
	if c.Type == api.JobComplete {
		t := c.LastTransitionTime
		job.Status.CompletionTime = &t
	}
	return true
}

// recordJobFinished announces the outcome as an event.
func (jm *Controller) recordJobFinished(job *api.Job, c *api.JobCondition) {
	key := job.Namespace + "/" + job.Name
	if c.Type == api.JobComplete {
		if job.Spec.Completions != nil && job.Status.Succeeded > *job.Spec.Completions {
			jm.recorder.Event(job, api.EventTypeWarning, "TooManySucceededPods", "Too many succeeded pods running after completion count reached")
		}
		jm.recorder.Event(job, api.EventTypeNormal, "Completed", "Job completed")
		jm.log.Info("job completed", "key", key, "succeeded", job.Status.Succeeded, "failed", job.Status.Failed)
		return
	}
	jm.recorder.Event(job, api.EventTypeWarning, c.Reason, c.Message)
	jm.log.Info("job failed", "key", key, "reason", c.Reason, "succeeded", job.Status.Succeeded, "failed", job.Status.Failed)
}

// updateJobStatus writes the status (PUT .../status), guarded by the
// resourceVersion the sync read: a conflict fails the sync, which runs
// again from the fresher cache.
func (jm *Controller) updateJobStatus(ctx context.Context, job *api.Job) (*api.Job, error) {
	return jm.jobs.Namespace(job.Namespace).UpdateStatus(ctx, job, client.UpdateOptions{})
}
