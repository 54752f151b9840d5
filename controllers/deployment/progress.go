package deployment

import (
	"context"
	"fmt"
	"time"

	"kubeloop/api"
)

// syncRolloutStatus writes the status after a rollout step, with the
// Progressing condition brought up to date: NewReplicaSetAvailable once the
// rollout is complete, ReplicaSetUpdated (its lastUpdateTime moved to now)
// whenever the status shows progress, ProgressDeadlineExceeded once
// progressDeadlineSeconds passed since the last progress. A ReplicaSet's
// ReplicaFailure condition is copied over (the new ReplicaSet's first).
// Kubernetes: progress.go, syncRolloutStatus.
func (dc *Controller) syncRolloutStatus(ctx context.Context, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment, view rolloutView) error {
	now := dc.clock.Now()
	newStatus := calculateStatus(allRSs, newRS, d, view, now)

	if !hasProgressDeadline(d) {
		removeDeploymentCondition(&newStatus, DeploymentProgressing)
	}
	// A completed rollout needs no progress estimate until the next one
	// starts (which creates or grows a ReplicaSet, so replicas differ
	// from updatedReplicas).
	cur := getDeploymentCondition(d.Status, DeploymentProgressing)
	complete := newStatus.Replicas == newStatus.UpdatedReplicas && cur != nil && cur.Reason == NewRSAvailableReason
	if hasProgressDeadline(d) && !complete {
		switch {
		case deploymentComplete(d, &newStatus):
			msg := fmt.Sprintf("Deployment %q has successfully progressed.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q has successfully progressed.", newRS.Name)
			}
			setDeploymentCondition(&newStatus, newDeploymentCondition(DeploymentProgressing, api.ConditionTrue, NewRSAvailableReason, msg, now))
		case deploymentProgressing(d, &newStatus):
			msg := fmt.Sprintf("Deployment %q is progressing.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q is progressing.", newRS.Name)
			}
			c := newDeploymentCondition(DeploymentProgressing, api.ConditionTrue, ReplicaSetUpdatedReason, msg, now)
			// Unlike other conditions, Progressing is rewritten with the
			// same reason: lastUpdateTime is the clock of the deadline.
			if cur != nil {
				if cur.Status == api.ConditionTrue {
					c.LastTransitionTime = cur.LastTransitionTime
				}
				removeDeploymentCondition(&newStatus, DeploymentProgressing)
			}
			setDeploymentCondition(&newStatus, c)
		case deploymentTimedOut(d, &newStatus, now):
			msg := fmt.Sprintf("Deployment %q has timed out progressing.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q has timed out progressing.", newRS.Name)
			}
			setDeploymentCondition(&newStatus, newDeploymentCondition(DeploymentProgressing, api.ConditionFalse, TimedOutReason, msg, now))
		}
	}

	if failures := getReplicaFailures(allRSs, newRS); len(failures) > 0 {
		setDeploymentCondition(&newStatus, failures[0])
	} else {
		removeDeploymentCondition(&newStatus, DeploymentReplicaFailure)
	}

	if api.SemanticEqual(d.Status, newStatus) {
		dc.requeueStuckDeployment(d, newStatus, now)
		return nil
	}
	d.Status = newStatus
	return dc.writeStatus(ctx, d)
}

// getReplicaFailures returns the ReplicaFailure conditions of the new
// ReplicaSet, or else of the others, as Deployment conditions.
// Kubernetes: progress.go, getReplicaFailures.
func getReplicaFailures(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) []api.DeploymentCondition {
	collect := func(rss []*api.ReplicaSet) []api.DeploymentCondition {
		var out []api.DeploymentCondition
		for _, rs := range rss {
			if rs == nil {
				continue
			}
			for _, c := range rs.Status.Conditions {
				if c.Type == api.ReplicaSetReplicaFailure {
					out = append(out, replicaSetToDeploymentCondition(c))
				}
			}
		}
		return out
	}
	if newRS != nil {
		if out := collect([]*api.ReplicaSet{newRS}); len(out) > 0 {
			return out
		}
	}
	return collect(allRSs)
}

// requeueStuckDeployment: a rollout whose status did not change may be
// stuck, and nothing else would wake it when its deadline passes, so it
// is requeued for then (a second late, against timer skew). It returns the
// delay, or -1 when no check is due.
// Kubernetes: progress.go, requeueStuckDeployment.
func (dc *Controller) requeueStuckDeployment(d *api.Deployment, newStatus api.DeploymentStatus, now time.Time) time.Duration {
	cur := getDeploymentCondition(d.Status, DeploymentProgressing)
	if !hasProgressDeadline(d) || cur == nil {
		return -1
	}
	if deploymentComplete(d, &newStatus) || cur.Reason == TimedOutReason {
		return -1
	}
	after := cur.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second).Sub(now)
	if after < time.Second {
		dc.log.Debug("queueing deployment for a progress check now", "key", d.Namespace+"/"+d.Name)
		dc.enqueueRateLimited(d)
		return 0
	}
	dc.log.Debug("queueing deployment for a progress check", "key", d.Namespace+"/"+d.Name, "after", after)
	dc.enqueueAfter(d, after+time.Second)
	return after
}
