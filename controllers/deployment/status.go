package deployment

import (
	"context"
	"time"

	"kubeloop/api"
)

// calculateStatus sums the ReplicaSets' statuses into the Deployment's and
// sets the Available condition: True when at least replicas−maxUnavailable
// pods are available. terminatingReplicas counts the pods of its
// ReplicaSets that are being deleted.
// Kubernetes: sync.go, calculateStatus (which sums the ReplicaSets'
// status.terminatingReplicas; kubeloop's ReplicaSet controller does not
// report it, so the pod cache is counted instead).
func calculateStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment, view rolloutView, now time.Time) api.DeploymentStatus {
	available := getAvailableReplicaCountForReplicaSets(allRSs)
	total := getReplicaCountForReplicaSets(allRSs)
	terminating := view.terminating(allRSs)
	status := api.DeploymentStatus{
		// The generation acted on: the spec this sync read.
		ObservedGeneration: d.Generation,
		Replicas:           getActualReplicaCountForReplicaSets(allRSs),
		UpdatedReplicas:    getActualReplicaCountForReplicaSets([]*api.ReplicaSet{newRS}),
		ReadyReplicas:      getReadyReplicaCountForReplicaSets(allRSs),
		AvailableReplicas:  available,
		// More available than wanted (while scaling down) is not negative
		// unavailability.
		UnavailableReplicas: max(0, total-available),
		TerminatingReplicas: &terminating,
		CollisionCount:      d.Status.CollisionCount,
	}
	// A copy: d.Status may share its slice with the informer's cache.
	status.Conditions = append([]api.DeploymentCondition(nil), d.Status.Conditions...)

	if available >= replicasOf(d)-maxUnavailable(d) {
		setDeploymentCondition(&status, newDeploymentCondition(DeploymentAvailable, api.ConditionTrue, MinimumReplicasAvailable, "Deployment has minimum availability.", now))
	} else {
		setDeploymentCondition(&status, newDeploymentCondition(DeploymentAvailable, api.ConditionFalse, MinimumReplicasUnavailable, "Deployment does not have minimum availability.", now))
	}
	return status
}

// syncDeploymentStatus writes the status if it changed.
// Kubernetes: sync.go, syncDeploymentStatus.
func (dc *Controller) syncDeploymentStatus(ctx context.Context, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment, view rolloutView) error {
	status := calculateStatus(allRSs, newRS, d, view, dc.clock.Now())
	if api.SemanticEqual(d.Status, status) {
		return nil
	}
	d.Status = status
	return dc.writeStatus(ctx, d)
}
