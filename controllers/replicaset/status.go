package replicaset

import (
	"context"
	"reflect"
	"time"

	"kubeloop/api"
	"kubeloop/client"
)

// statusUpdateRetries is how many times a conflicting status write is
// retried on a fresh copy before the sync gives up and is requeued.
const statusUpdateRetries = 1

// The ReplicaFailure condition's reasons, and the event reasons of pod
// creation and deletion (Kubernetes: pkg/controller/controller_utils.go).
const (
	FailedCreatePodReason     = "FailedCreate"
	SuccessfulCreatePodReason = "SuccessfulCreate"
	FailedDeletePodReason     = "FailedDelete"
	SuccessfulDeletePodReason = "SuccessfulDelete"
)

// calculateStatus derives the status from the pods the ReplicaSet owns and
// from how its last manageReplicas went.
// Kubernetes: pkg/controller/replicaset/replica_set_utils.go, calculateStatus.
func calculateStatus(rs *api.ReplicaSet, pods []*api.Pod, manageErr error, now time.Time) api.ReplicaSetStatus {
	status := rs.Status
	if rs.Status.Conditions != nil {
		status.Conditions = append([]api.ReplicaSetCondition(nil), rs.Status.Conditions...)
	}
	// The template's labels are a superset of the selector, so a pod that
	// carries them all is "fully labeled".
	template := api.SelectorFromSet(rs.Spec.Template.Labels)
	var fully, ready, available int32
	for _, p := range pods {
		if template.Matches(p.Labels) {
			fully++
		}
		if IsPodReady(p) {
			ready++
			if IsPodAvailable(p, rs.Spec.MinReadySeconds, now) {
				available++
			}
		}
	}

	failure := getCondition(rs.Status, api.ReplicaSetReplicaFailure)
	switch {
	case manageErr != nil && failure == nil:
		reason := ""
		if diff := len(pods) - int(replicas(rs)); diff < 0 {
			reason = FailedCreatePodReason
		} else if diff > 0 {
			reason = FailedDeletePodReason
		}
		status.Conditions = append(status.Conditions, api.ReplicaSetCondition{
			Type: api.ReplicaSetReplicaFailure, Status: api.ConditionTrue,
			LastTransitionTime: api.NewTime(now), Reason: reason, Message: manageErr.Error(),
		})
	case manageErr == nil && failure != nil:
		status.Conditions = removeCondition(status.Conditions, api.ReplicaSetReplicaFailure)
	}

	status.Replicas = int32(len(pods))
	status.FullyLabeledReplicas = fully
	status.ReadyReplicas = ready
	status.AvailableReplicas = available
	return status
}

// updateReplicaSetStatus writes status unless it equals what the ReplicaSet
// already has and the generation was already observed: the steady state
// makes no write at all. On a conflict it re-reads once and tries again.
// Kubernetes: replica_set_utils.go, updateReplicaSetStatus.
func (rsc *Controller) updateReplicaSetStatus(ctx context.Context, rs *api.ReplicaSet, status api.ReplicaSetStatus) (*api.ReplicaSet, error) {
	if rs.Status.Replicas == status.Replicas &&
		rs.Status.FullyLabeledReplicas == status.FullyLabeledReplicas &&
		rs.Status.ReadyReplicas == status.ReadyReplicas &&
		rs.Status.AvailableReplicas == status.AvailableReplicas &&
		rs.Generation == rs.Status.ObservedGeneration &&
		reflect.DeepEqual(rs.Status.Conditions, status.Conditions) {
		return rs, nil
	}
	// The generation acted on, not whatever a re-read returns: a retry must
	// not claim to have seen a spec it never synced.
	status.ObservedGeneration = rs.Generation

	rsClient := client.For[*api.ReplicaSet](rsc.client).Namespace(rs.Namespace)
	key := rs.Namespace + "/" + rs.Name
	for i := 0; ; i++ {
		rsc.log.Info("status", "key", key,
			"replicas", status.Replicas, "ready", status.ReadyReplicas,
			"available", status.AvailableReplicas, "observedGeneration", status.ObservedGeneration)
		rs.Status = status
		updated, err := rsClient.UpdateStatus(ctx, rs, client.UpdateOptions{})
		if err == nil {
			return updated, nil
		}
		if i >= statusUpdateRetries {
			return nil, err
		}
		fresh, getErr := rsClient.Get(ctx, rs.Name, client.GetOptions{})
		if getErr != nil {
			return nil, getErr
		}
		rs = fresh
	}
}

func getCondition(status api.ReplicaSetStatus, t api.ReplicaSetConditionType) *api.ReplicaSetCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == t {
			return &status.Conditions[i]
		}
	}
	return nil
}

func removeCondition(conds []api.ReplicaSetCondition, t api.ReplicaSetConditionType) []api.ReplicaSetCondition {
	var out []api.ReplicaSetCondition
	for _, c := range conds {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}

// replicas is spec.replicas; the apiserver defaults it to 1, so nil only
// happens for objects built by hand.
func replicas(rs *api.ReplicaSet) int32 {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}
