package deployment

import (
	"time"

	"kubeloop/api"
)

// The condition types and strategy types of apps/v1 Deployments
// (k8s.io/api/apps/v1 types.go).
const (
	// DeploymentAvailable: at least spec.replicas − maxUnavailable pods
	// are available.
	DeploymentAvailable api.DeploymentConditionType = "Available"
	// DeploymentProgressing: the rollout is moving (or done); False once
	// the progress deadline passed without progress.
	DeploymentProgressing api.DeploymentConditionType = "Progressing"
	// DeploymentReplicaFailure: a ReplicaSet could not create or delete
	// pods (copied from the ReplicaSet's own condition).
	DeploymentReplicaFailure api.DeploymentConditionType = "ReplicaFailure"

	RecreateDeploymentStrategyType      api.DeploymentStrategyType = "Recreate"
	RollingUpdateDeploymentStrategyType api.DeploymentStrategyType = "RollingUpdate"

	// DefaultDeploymentUniqueLabelKey is the label the controller adds to
	// a ReplicaSet's selector, template and labels so that the ReplicaSets
	// of one Deployment never select each other's pods.
	DefaultDeploymentUniqueLabelKey = "pod-template-hash"
)

// The reasons of the Progressing and Available conditions, worded as
// Kubernetes' pkg/controller/deployment/util/deployment_util.go.
const (
	// ReplicaSetUpdatedReason: a ReplicaSet of the rollout was scaled, or
	// its pods became ready or available.
	ReplicaSetUpdatedReason = "ReplicaSetUpdated"
	// FailedRSCreateReason: the new ReplicaSet could not be created.
	FailedRSCreateReason = "ReplicaSetCreateError"
	// NewReplicaSetReason: the controller created the new ReplicaSet.
	NewReplicaSetReason = "NewReplicaSetCreated"
	// FoundNewRSReason: the new ReplicaSet already existed (adopted, or
	// progress tracking started late).
	FoundNewRSReason = "FoundNewReplicaSet"
	// NewRSAvailableReason: the rollout is complete.
	NewRSAvailableReason = "NewReplicaSetAvailable"
	// TimedOutReason: no progress for progressDeadlineSeconds.
	TimedOutReason = "ProgressDeadlineExceeded"
	// PausedDeployReason and ResumedDeployReason mark a pause and a resume,
	// so that time spent paused never counts towards the deadline.
	PausedDeployReason  = "DeploymentPaused"
	ResumedDeployReason = "DeploymentResumed"

	MinimumReplicasAvailable   = "MinimumReplicasAvailable"
	MinimumReplicasUnavailable = "MinimumReplicasUnavailable"
)

// newDeploymentCondition returns a condition that both changed and was
// updated at now. Kubernetes: util.NewDeploymentCondition (which uses
// metav1.Now: second precision, as api.NewTime).
func newDeploymentCondition(t api.DeploymentConditionType, status api.ConditionStatus, reason, message string, now time.Time) api.DeploymentCondition {
	ts := api.NewTime(now)
	return api.DeploymentCondition{
		Type: t, Status: status, Reason: reason, Message: message,
		LastUpdateTime: ts, LastTransitionTime: ts,
	}
}

// getDeploymentCondition returns a copy of the condition of type t, or nil.
func getDeploymentCondition(status api.DeploymentStatus, t api.DeploymentConditionType) *api.DeploymentCondition {
	for _, c := range status.Conditions {
		if c.Type == t {
			return &c
		}
	}
	return nil
}

// setDeploymentCondition puts c in status, replacing the condition of its
// type. Nothing changes if one with the same status and reason is there
// already (so lastUpdateTime only moves when something happened); the
// transition time is kept when only the reason changed.
// Kubernetes: util.SetDeploymentCondition.
func setDeploymentCondition(status *api.DeploymentStatus, c api.DeploymentCondition) {
	cur := getDeploymentCondition(*status, c.Type)
	if cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return
	}
	if cur != nil && cur.Status == c.Status {
		c.LastTransitionTime = cur.LastTransitionTime
	}
	status.Conditions = append(filterOutCondition(status.Conditions, c.Type), c)
}

// removeDeploymentCondition drops the condition of type t.
func removeDeploymentCondition(status *api.DeploymentStatus, t api.DeploymentConditionType) {
	status.Conditions = filterOutCondition(status.Conditions, t)
}

// filterOutCondition returns a new slice, so the caller's (possibly
// cached) one is never written to.
func filterOutCondition(conds []api.DeploymentCondition, t api.DeploymentConditionType) []api.DeploymentCondition {
	var out []api.DeploymentCondition
	for _, c := range conds {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}

// replicaSetToDeploymentCondition promotes a ReplicaSet's ReplicaFailure
// condition to the Deployment. Kubernetes: util.ReplicaSetToDeploymentCondition.
func replicaSetToDeploymentCondition(c api.ReplicaSetCondition) api.DeploymentCondition {
	return api.DeploymentCondition{
		Type: api.DeploymentConditionType(c.Type), Status: c.Status,
		LastTransitionTime: c.LastTransitionTime, LastUpdateTime: c.LastTransitionTime,
		Reason: c.Reason, Message: c.Message,
	}
}

// deploymentComplete: every desired replica is updated and available, no
// old pod is left, and the status describes the current spec.
// Kubernetes: util.DeploymentComplete.
func deploymentComplete(d *api.Deployment, s *api.DeploymentStatus) bool {
	want := replicasOf(d)
	return s.UpdatedReplicas == want && s.Replicas == want && s.AvailableReplicas == want &&
		s.ObservedGeneration >= d.Generation
}

// deploymentProgressing compares the status being written with the one the
// Deployment has: new pods created, ready or available, or old ones gone,
// all count as progress. Kubernetes: util.DeploymentProgressing.
func deploymentProgressing(d *api.Deployment, s *api.DeploymentStatus) bool {
	old := d.Status
	oldOld := old.Replicas - old.UpdatedReplicas
	newOld := s.Replicas - s.UpdatedReplicas
	return s.UpdatedReplicas > old.UpdatedReplicas || newOld < oldOld ||
		s.ReadyReplicas > old.ReadyReplicas || s.AvailableReplicas > old.AvailableReplicas
}

// deploymentTimedOut: the Progressing condition was last updated more than
// progressDeadlineSeconds ago (or already says so). A completed rollout
// never times out. Kubernetes: util.DeploymentTimedOut.
func deploymentTimedOut(d *api.Deployment, s *api.DeploymentStatus, now time.Time) bool {
	if !hasProgressDeadline(d) {
		return false
	}
	c := getDeploymentCondition(*s, DeploymentProgressing)
	switch {
	case c == nil:
		// No base to measure progress from.
		return false
	case c.Reason == NewRSAvailableReason:
		// A status written before this rollout began (the cache may lag
		// the new ReplicaSet): the next sync catches up.
		return false
	case c.Reason == TimedOutReason:
		return true
	}
	deadline := time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second
	return c.LastUpdateTime.Add(deadline).Before(now)
}
