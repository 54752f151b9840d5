package job

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/controllers/replicaset"
)

// getPodsForJob returns the pods the Job owns: those it controls and still
// selects, plus orphans it selects, which it adopts — adding the tracking
// finalizer as it does. A pod it controls but no longer selects is
// released, and loses the finalizer. Pods are pointers into the cache.
// Kubernetes: job_controller.go, getPodsForJob, with
// controller_ref_manager.go, PodControllerRefManager.ClaimPods.
func (jm *Controller) getPodsForJob(ctx context.Context, job *api.Job) ([]*api.Pod, error) {
	selector, err := api.LabelSelectorAsSelector(job.Spec.Selector)
	if err != nil {
		return nil, fmt.Errorf("couldn't convert Job selector: %w", err)
	}
	// Every pod of the namespace: a pod we own but no longer select must be
	// seen to be released.
	all := jm.podLister.Namespace(job.Namespace).List(nil)
	var claimed []*api.Pod
	var errs []error
	adoptChecked := false
	var adoptErr error
	for _, pod := range all {
		ref := api.GetControllerOf(&pod.ObjectMeta)
		matches := selector.Matches(pod.Labels)
		switch {
		case ref != nil && ref.UID == job.UID:
			if matches {
				claimed = append(claimed, pod)
				continue
			}
			if job.DeletionTimestamp != nil {
				continue // going away anyway: the garbage collector decides
			}
			if err := jm.patchPod(ctx, pod, releasePatch(pod, job)); err != nil && !api.IsNotFound(err) && !api.IsInvalid(err) {
				errs = append(errs, err)
			}
		case ref != nil:
			// Someone else's.
		case matches && job.DeletionTimestamp == nil && pod.DeletionTimestamp == nil && !selector.Empty():
			if !adoptChecked {
				adoptChecked, adoptErr = true, jm.canAdopt(ctx, job)
			}
			if adoptErr != nil {
				errs = append(errs, fmt.Errorf("can't adopt Pod %s/%s (%s): %w", pod.Namespace, pod.Name, pod.UID, adoptErr))
				continue
			}
			if err := jm.patchPod(ctx, pod, adoptPatch(pod, job)); err != nil {
				if !api.IsNotFound(err) {
					errs = append(errs, err)
				}
				continue
			}
			jm.log.Info("adopted pod", "key", job.Namespace+"/"+job.Name, "pod", pod.Name)
			// Count it as the patch made it: with the finalizer.
			adopted := pod.DeepCopy()
			if !hasJobTrackingFinalizer(adopted) {
				adopted.Finalizers = append(adopted.Finalizers, api.JobTrackingFinalizer)
			}
			claimed = append(claimed, adopted)
		}
	}
	return claimed, errors.Join(errs...)
}

// canAdopt re-reads the Job from the API: the cache may not show yet that
// it is being deleted, and a deleted owner must not collect new pods.
// Kubernetes: controller_ref_manager.go, RecheckDeletionTimestamp.
func (jm *Controller) canAdopt(ctx context.Context, job *api.Job) error {
	fresh, err := jm.jobs.Namespace(job.Namespace).Get(ctx, job.Name, client.GetOptions{})
	switch {
	case err != nil:
		return err
	case fresh.UID != job.UID:
		return fmt.Errorf("original Job %s/%s is gone: got uid %s, wanted %s", job.Namespace, job.Name, fresh.UID, job.UID)
	case fresh.DeletionTimestamp != nil:
		return fmt.Errorf("%s/%s has just been deleted at %v", job.Namespace, job.Name, fresh.DeletionTimestamp.Time)
	}
	return nil
}

// adoptPatch adds the controller reference and the tracking finalizer; the
// pod's uid in the patch makes it fail on a namesake. Kubernetes:
// controller_ref_manager.go, ownerRefControllerPatch.
func adoptPatch(pod *api.Pod, job *api.Job) []byte {
	yes := true
	patch, _ := json.Marshal(map[string]any{
		"metadata": map[string]any{
			"uid": pod.UID,
			"ownerReferences": []api.OwnerReference{{
				APIVersion: "batch/v1", Kind: "Job", Name: job.Name, UID: job.UID,
				Controller: &yes, BlockOwnerDeletion: &yes,
			}},
			"finalizers": []string{api.JobTrackingFinalizer},
		},
	})
	return patch
}

// releasePatch removes the Job's reference and the tracking finalizer.
// Kubernetes: controller_ref_manager.go, deleteOwnerRefStrategicMergePatch.
func releasePatch(pod *api.Pod, job *api.Job) []byte {
	patch, _ := json.Marshal(map[string]any{
		"metadata": map[string]any{
			"uid":                                 pod.UID,
			"ownerReferences":                     []map[string]any{{"$patch": "delete", "uid": job.UID}},
			"$deleteFromPrimitiveList/finalizers": []string{api.JobTrackingFinalizer},
		},
	})
	return patch
}

func (jm *Controller) patchPod(ctx context.Context, pod *api.Pod, patch []byte) error {
	_, err := jm.pods.Namespace(pod.Namespace).Patch(ctx, pod.Name, client.StrategicMergePatchType, patch, client.PatchOptions{})
	if err == nil {
		return nil
	}
	return fmt.Errorf("patch pod %s: %w", replicaset.PodKey(pod), err)
}
