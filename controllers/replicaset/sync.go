package replicaset

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/informers"
)

// SlowStartInitialBatchSize is the first batch of pod creations; each fully
// successful batch doubles the next. Kubernetes:
// pkg/controller/controller_utils.go.
const SlowStartInitialBatchSize = 1

// syncReplicaSet is the reconcile: read the ReplicaSet and its pods from the
// cache, claim pods, create or delete the difference (unless earlier
// creates or deletes are still in flight) and write the status.
// Kubernetes: replica_set.go, syncReplicaSet.
func (rsc *Controller) syncReplicaSet(ctx context.Context, key string) error {
	start := rsc.clock.Now()
	defer func() { rsc.log.Debug("synced", "key", key, "duration", rsc.clock.Since(start)) }()

	namespace, name, err := api.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cached, err := rsc.rsLister.Namespace(namespace).Get(name)
	if api.IsNotFound(err) {
		rsc.log.Info("replicaset deleted", "key", key)
		rsc.expectations.DeleteExpectations(key)
		return nil
	}
	if err != nil {
		return err
	}
	// Read the expectations before the pods: if an observation lands in
	// between, we merely skip managing this time and are woken again.
	needsSync := rsc.expectations.SatisfiedExpectations(key)
	selector, err := api.LabelSelectorAsSelector(cached.Spec.Selector)
	if err != nil {
		// Retrying cannot fix a bad selector; validation should stop it.
		rsc.log.Error("invalid selector", "key", key, "err", err)
		return nil
	}

	// Every pod of the namespace, not just those the selector matches: a
	// pod we own but no longer select must be seen to be released.
	pods := FilterActivePods(rsc.podLister.Namespace(namespace).List(nil))
	pods, err = rsc.claimPods(ctx, cached, selector, pods)
	if err != nil {
		return err
	}

	rs := cached.DeepCopy()
	rsc.traceSync(rs, pods, needsSync)
	var manageErr error
	if needsSync && rs.DeletionTimestamp == nil {
		manageErr = rsc.manageReplicas(ctx, pods, rs)
	}
	status := calculateStatus(rs, pods, manageErr, rsc.clock.Now())
	updated, err := rsc.updateReplicaSetStatus(ctx, rs, status)
	if err != nil {
		return err
	}
	// Pods ready but not yet ready for minReadySeconds become available
	// without any event; come back when they should have.
	if manageErr == nil && updated.Spec.MinReadySeconds > 0 &&
		updated.Status.ReadyReplicas == replicas(updated) &&
		updated.Status.AvailableReplicas != replicas(updated) {
		rsc.queue.AddAfter(key, time.Duration(updated.Spec.MinReadySeconds)*time.Second)
	}
	return manageErr
}

// manageReplicas creates or deletes pods to close the gap between pods and
// spec.replicas, at most burstReplicas per sync, and records what it expects
// the informer to report back.
// Kubernetes: replica_set.go, manageReplicas.
func (rsc *Controller) manageReplicas(ctx context.Context, pods []*api.Pod, rs *api.ReplicaSet) error {
	key := rs.Namespace + "/" + rs.Name
	diff := len(pods) - int(replicas(rs))
	switch {
	case diff < 0:
		n := min(-diff, rsc.burstReplicas)
		// Expect before creating: the informer may report a new pod before
		// Create even returns.
		rsc.expectations.ExpectCreations(key, n)
		rsc.log.Info("too few replicas", "key", key, "need", replicas(rs), "creating", n)
		created, err := slowStartBatch(n, SlowStartInitialBatchSize, func() error {
			err := rsc.createPod(ctx, rs)
			if err != nil && hasStatusCause(err, api.CauseTypeNamespaceTerminating) {
				return nil
			}
			return err
		})
		// Creations never attempted (or failed) will never be observed.
		for range n - created {
			rsc.expectations.CreationObserved(key)
		}
		return err

	case diff > 0:
		n := min(diff, rsc.burstReplicas)
		rsc.log.Info("too many replicas", "key", key, "need", replicas(rs), "deleting", n)
		victims := getPodsToDelete(pods, rsc.getIndirectlyRelatedPods(rs, pods), n, rsc.clock.Now())
		podKeys := make([]string, len(victims))
		for i, p := range victims {
			podKeys[i] = PodKey(p)
		}
		rsc.expectations.ExpectDeletions(key, podKeys)

		errCh := make(chan error, len(victims))
		var wg sync.WaitGroup
		for _, p := range victims {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := rsc.deletePodOf(ctx, rs, p); err != nil {
					// No delete event will come for it.
					rsc.expectations.DeletionObserved(key, PodKey(p))
					if !api.IsNotFound(err) {
						errCh <- err
					}
				}
			}()
		}
		wg.Wait()
		select {
		case err := <-errCh:
			// The failures are likely all alike: report the first.
			return err
		default:
		}
	}
	return nil
}

// slowStartBatch calls fn count times, in concurrent batches of 1, 2, 4, ...
// and stops after the first batch in which any call failed, so a cause that
// fails every call (quota, admission) costs a few requests, not hundreds.
// It returns how many calls succeeded.
// Kubernetes: replica_set.go, slowStartBatch.
func slowStartBatch(count, initialBatchSize int, fn func() error) (int, error) {
	remaining, successes := count, 0
	for batch := min(remaining, initialBatchSize); batch > 0; batch = min(2*batch, remaining) {
		errCh := make(chan error, batch)
		var wg sync.WaitGroup
		for range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := fn(); err != nil {
					errCh <- err
				}
			}()
		}
		wg.Wait()
		successes += batch - len(errCh)
		if len(errCh) > 0 {
			return successes, <-errCh
		}
		remaining -= batch
	}
	return successes, nil
}

// createPod creates one pod from the template and reports it as an event.
// Kubernetes: controller_utils.go, RealPodControl.CreatePods.
func (rsc *Controller) createPod(ctx context.Context, rs *api.ReplicaSet) error {
	pod, err := podFromTemplate(rs)
	if err != nil {
		return err
	}
	created, err := client.For[*api.Pod](rsc.client).Namespace(rs.Namespace).Create(ctx, pod, client.CreateOptions{})
	if err != nil {
		rsc.recorder.Eventf(rs, api.EventTypeWarning, FailedCreatePodReason, "Error creating: %v", err)
		return err
	}
	rsc.log.Info("created pod", "key", rs.Namespace+"/"+rs.Name, "pod", created.Name)
	rsc.tracePodCreated(created)
	rsc.recorder.Eventf(rs, api.EventTypeNormal, SuccessfulCreatePodReason, "Created pod: %v", created.Name)
	return nil
}

// podFromTemplate stamps a pod out of the ReplicaSet's template: a generated
// name prefixed with the ReplicaSet's, its labels, annotations and spec, and
// a controller reference back to the ReplicaSet.
// Kubernetes: controller_utils.go, GetPodFromTemplate.
func podFromTemplate(rs *api.ReplicaSet) (*api.Pod, error) {
	t := rs.Spec.Template.DeepCopy()
	if len(t.Labels) == 0 {
		return nil, errors.New("unable to create pods, no labels")
	}
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{
			GenerateName:    rs.Name + "-",
			Namespace:       rs.Namespace,
			Labels:          t.Labels,
			Annotations:     t.Annotations,
			Finalizers:      t.Finalizers,
			OwnerReferences: []api.OwnerReference{newControllerRef(rs)},
		},
		Spec: t.Spec,
	}, nil
}

// deletePodOf deletes one pod of rs and reports it as an event.
// Kubernetes: controller_utils.go, RealPodControl.DeletePod.
func (rsc *Controller) deletePodOf(ctx context.Context, rs *api.ReplicaSet, pod *api.Pod) error {
	err := client.For[*api.Pod](rsc.client).Namespace(pod.Namespace).Delete(ctx, pod.Name, api.DeleteOptions{})
	if err != nil {
		if api.IsNotFound(err) {
			return err
		}
		rsc.recorder.Eventf(rs, api.EventTypeWarning, FailedDeletePodReason, "Error deleting: %v", err)
		return fmt.Errorf("unable to delete pods: %w", err)
	}
	rsc.log.Info("deleted pod", "key", rs.Namespace+"/"+rs.Name, "pod", pod.Name)
	rsc.recorder.Eventf(rs, api.EventTypeNormal, SuccessfulDeletePodReason, "Deleted pod: %v", pod.Name)
	return nil
}

// getIndirectlyRelatedPods returns the active pods of every ReplicaSet with
// the same controller as rs (the ReplicaSets of one Deployment), for the
// same-node rank. For a ReplicaSet with no controller Kubernetes finds none
// and ranks every pod 0; kubeloop uses the ReplicaSet's own pods, so
// "spread what is left across nodes" holds for a bare ReplicaSet too.
// Kubernetes: replica_set.go, getIndirectlyRelatedPods.
func (rsc *Controller) getIndirectlyRelatedPods(rs *api.ReplicaSet, own []*api.Pod) []*api.Pod {
	ref := api.GetControllerOf(&rs.ObjectMeta)
	if ref == nil {
		return own
	}
	objs, err := rsc.rsIndexer.ByIndex(informers.OwnerUIDIndex, ref.UID)
	if err != nil {
		return own
	}
	var related []*api.Pod
	seen := map[string]bool{}
	for _, o := range objs {
		other, ok := o.(*api.ReplicaSet)
		if !ok {
			continue
		}
		if r := api.GetControllerOf(&other.ObjectMeta); r == nil || r.UID != ref.UID {
			continue
		}
		sel, err := api.LabelSelectorAsSelector(other.Spec.Selector)
		if err != nil {
			continue
		}
		for _, p := range rsc.podLister.Namespace(other.Namespace).List(sel) {
			if !seen[p.UID] {
				seen[p.UID] = true
				related = append(related, p)
			}
		}
	}
	return related
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
