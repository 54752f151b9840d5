package job

import (
	"reflect"
	"time"

	"kubeloop/api"
	"kubeloop/controllers/replicaset"
	"kubeloop/informer"
)

// The handlers only decide which Job keys to enqueue, feed the
// expectations, and route pods whose finalizer nobody else will remove to
// the orphan queue. Every decision about a Job is syncJob's, from the
// caches. Kubernetes: job_controller.go, addPod ... deleteJob.

// addPod observes one of our creations, or wakes the Jobs that might adopt
// an orphan.
func (jm *Controller) addPod(obj any) {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	if pod.DeletionTimestamp != nil {
		// First seen already going away (after a restart): a deletion.
		jm.deletePod(pod, false)
		return
	}
	if ref := api.GetControllerOf(&pod.ObjectMeta); ref != nil {
		job := jm.resolveControllerRef(pod.Namespace, ref)
		if job == nil {
			return
		}
		key, _ := api.MetaNamespaceKeyFunc(job)
		jm.expectations.CreationObserved(key)
		jm.enqueueSyncJobBatched(job)
		return
	}
	if hasJobTrackingFinalizer(pod) {
		jm.enqueueOrphanPod(pod)
	}
	for _, job := range jm.getPodJobs(pod) {
		jm.enqueueSyncJobBatched(job)
	}
}

// updatePod wakes the pod's Job (and its old one if the controller
// reference changed), noting a finalizer removal we were waiting for.
func (jm *Controller) updatePod(oldObj, newObj any) {
	oldPod, ok1 := oldObj.(*api.Pod)
	curPod, ok2 := newObj.(*api.Pod)
	if !ok1 || !ok2 || curPod.ResourceVersion == oldPod.ResourceVersion {
		return // a resync: nothing changed
	}
	if curPod.DeletionTimestamp != nil {
		// A graceful deletion began: replace the pod now rather than when
		// the kubelet finally removes it.
		jm.deletePod(curPod, false)
		return
	}
	// The finalizer may have been re-added and removed again during an
	// ownership change, so only the current pod is looked at.
	finalizerRemoved := !hasJobTrackingFinalizer(curPod)
	curRef := api.GetControllerOf(&curPod.ObjectMeta)
	oldRef := api.GetControllerOf(&oldPod.ObjectMeta)
	refChanged := !reflect.DeepEqual(curRef, oldRef)
	if refChanged && oldRef != nil {
		if job := jm.resolveControllerRef(oldPod.Namespace, oldRef); job != nil {
			jm.observeFinalizerRemoval(job, curPod, finalizerRemoved)
			jm.enqueueSyncJobBatched(job)
		}
	}
	if curRef != nil {
		if job := jm.resolveControllerRef(curPod.Namespace, curRef); job != nil {
			jm.observeFinalizerRemoval(job, curPod, finalizerRemoved)
			jm.enqueueSyncJobBatched(job)
		}
		return
	}
	if hasJobTrackingFinalizer(curPod) {
		jm.enqueueOrphanPod(curPod)
	}
	if refChanged || !reflect.DeepEqual(curPod.Labels, oldPod.Labels) {
		for _, job := range jm.getPodJobs(curPod) {
			jm.enqueueSyncJobBatched(job)
		}
	}
}

func (jm *Controller) observeFinalizerRemoval(job *api.Job, pod *api.Pod, removed bool) {
	if removed {
		key, _ := api.MetaNamespaceKeyFunc(job)
		jm.finalizerExpectations.finalizerRemovalObserved(key, pod.UID)
	}
}

// deletePod observes a deletion: final is true for the informer's delete
// event (the pod is gone), false for a pod that got its deletionTimestamp.
// obj may be a tombstone whose pod is stale; only its key, owner and
// finalizers are used.
func (jm *Controller) deletePod(obj any, final bool) {
	pod, ok := obj.(*api.Pod)
	if !ok {
		tomb, isTomb := obj.(informer.DeletedFinalStateUnknown)
		if !isTomb {
			return
		}
		if pod, ok = tomb.Obj.(*api.Pod); !ok {
			return
		}
	}
	hasFinalizer := hasJobTrackingFinalizer(pod)
	ref := api.GetControllerOf(&pod.ObjectMeta)
	if ref == nil {
		// An orphan; maybe a Job's pod whose owner reference the garbage
		// collector removed. Its finalizer must still go.
		if hasFinalizer {
			jm.enqueueOrphanPod(pod)
		}
		return
	}
	job := jm.resolveControllerRef(pod.Namespace, ref)
	if job == nil || IsJobFinished(job) {
		// syncJob will not touch this pod again.
		if hasFinalizer {
			jm.enqueueOrphanPod(pod)
		}
		return
	}
	key, _ := api.MetaNamespaceKeyFunc(job)
	jm.expectations.DeletionObserved(key, replicaset.PodKey(pod))
	if final || !hasFinalizer {
		jm.finalizerExpectations.finalizerRemovalObserved(key, pod.UID)
	}
	jm.enqueueSyncJobBatched(job)
}

func (jm *Controller) addJob(obj any) {
	if job, ok := obj.(*api.Job); ok {
		jm.enqueueSyncJobImmediately(job)
	}
}

// updateJob syncs at once after a spec change and batched after a status
// change, cleans up finalizers of a finished Job's pods, and schedules the
// deadline check when activeDeadlineSeconds changed.
func (jm *Controller) updateJob(oldObj, newObj any) {
	oldJob, ok1 := oldObj.(*api.Job)
	curJob, ok2 := newObj.(*api.Job)
	if !ok1 || !ok2 {
		return
	}
	if curJob.Generation == oldJob.Generation {
		jm.enqueueSyncJobBatched(curJob)
	} else {
		jm.enqueueSyncJobImmediately(curJob)
	}
	// A finished Job's pods should have lost their finalizers already;
	// this is the backstop.
	if IsJobFinished(curJob) {
		jm.cleanupPodFinalizers(curJob)
	}
	if curJob.Status.StartTime != nil && curJob.Spec.ActiveDeadlineSeconds != nil {
		curADS, oldADS := curJob.Spec.ActiveDeadlineSeconds, oldJob.Spec.ActiveDeadlineSeconds
		if oldADS == nil || *oldADS != *curADS {
			total := time.Duration(*curADS) * time.Second
			passed := jm.clock.Since(curJob.Status.StartTime.Time)
			jm.enqueueAfter(curJob, total-passed)
		}
	}
}

// deleteJob syncs the key (to forget it) and frees the Job's pods of their
// finalizers.
func (jm *Controller) deleteJob(obj any) {
	job, ok := obj.(*api.Job)
	if !ok {
		tomb, isTomb := obj.(informer.DeletedFinalStateUnknown)
		if !isTomb {
			return
		}
		if job, ok = tomb.Obj.(*api.Job); !ok {
			return
		}
	}
	jm.enqueueSyncJobImmediately(job)
	jm.cleanupPodFinalizers(job)
}

// cleanupPodFinalizers sends every pod of the Job that still has the
// tracking finalizer to the orphan queue.
func (jm *Controller) cleanupPodFinalizers(job *api.Job) {
	sel, err := api.LabelSelectorAsSelector(job.Spec.Selector)
	if err != nil {
		return
	}
	for _, pod := range jm.podLister.Namespace(job.Namespace).List(sel) {
		if ref := api.GetControllerOf(&pod.ObjectMeta); ref != nil && ref.UID == job.UID && hasJobTrackingFinalizer(pod) {
			jm.enqueueOrphanPod(pod)
		}
	}
}

// resolveControllerRef returns the cached Job a controller reference names,
// or nil if it is another kind, gone, or a namesake with another UID.
func (jm *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.Job {
	if ref.Kind != "Job" {
		return nil
	}
	job, err := jm.jobLister.Namespace(namespace).Get(ref.Name)
	if err != nil || job.UID != ref.UID {
		return nil
	}
	return job
}

// getPodJobs returns the cached Jobs whose selector matches the pod.
func (jm *Controller) getPodJobs(pod *api.Pod) []*api.Job {
	var out []*api.Job
	for _, job := range jm.jobLister.Namespace(pod.Namespace).List(nil) {
		sel, err := api.LabelSelectorAsSelector(job.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(pod.Labels) {
			continue
		}
		out = append(out, job)
	}
	if len(out) > 1 {
		jm.log.Warn("more than one job selects a pod", "pod", replicaset.PodKey(pod), "count", len(out))
	}
	return out
}
