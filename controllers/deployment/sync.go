package deployment

import (
	"context"
	"fmt"
	"reflect"

	"kubeloop/api"
	"kubeloop/client"
)

// syncDeployment is the reconcile. From the caches it reads the Deployment,
// claims its ReplicaSets and groups their pods, then does one of, in this
// order of precedence: report status only (being deleted); keep sizes and
// clean up (paused); scale proportionally (spec.replicas changed); or take
// one step of the rollout strategy. Each step is computed from the world
// as it is, so it does not matter which event woke the sync, nor whether
// the previous step was taken by this process or one that crashed.
// Kubernetes: deployment_controller.go, syncDeployment.
func (dc *Controller) syncDeployment(ctx context.Context, key string) error {
	start := dc.clock.Now()
	defer func() { dc.log.Debug("synced", "key", key, "duration", dc.clock.Since(start)) }()

	namespace, name, err := api.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cached, err := dc.dLister.Namespace(namespace).Get(name)
	if api.IsNotFound(err) {
		dc.log.Info("deployment deleted", "key", key)
		return nil
	}
	if err != nil {
		return err
	}
	// The cache's object is shared: work on a copy.
	d := cached.DeepCopy()

	if d.Spec.Selector == nil || reflect.DeepEqual(*d.Spec.Selector, api.LabelSelector{}) {
		dc.recorder.Eventf(d, api.EventTypeWarning, "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required.")
		if d.Status.ObservedGeneration < d.Generation {
			d.Status.ObservedGeneration = d.Generation
			_ = dc.writeStatus(ctx, d)
		}
		return nil
	}

	rsList, err := dc.getReplicaSetsForDeployment(ctx, d)
	if err != nil {
		return err
	}
	// The pods, by ReplicaSet: a Recreate rollout waits until the old ones
	// are gone, and every rollout step counts them (podcounts.go).
	podMap, err := dc.getPodMapForDeployment(d, rsList)
	if err != nil {
		return err
	}
	view := newRolloutView(podMap, d.Spec.MinReadySeconds, dc.clock.Now())

	if d.DeletionTimestamp != nil {
		return dc.syncStatusOnly(ctx, d, rsList, view)
	}
	// Pausing and resuming are marked in the Progressing condition, so
	// that time spent paused never counts towards the progress deadline.
	if err := dc.checkPausedConditions(ctx, d); err != nil {
		return err
	}
	if d.Spec.Paused {
		return dc.sync(ctx, d, rsList, view)
	}
	scaling, err := dc.isScalingEvent(ctx, d, rsList, view)
	if err != nil {
		return err
	}
	if scaling {
		return dc.sync(ctx, d, rsList, view)
	}
	switch d.Spec.Strategy.Type {
	case RecreateDeploymentStrategyType:
		return dc.rolloutRecreate(ctx, d, rsList, podMap, view)
	case RollingUpdateDeploymentStrategyType:
		return dc.rolloutRolling(ctx, d, rsList, view)
	}
	return fmt.Errorf("unexpected deployment strategy type: %s", d.Spec.Strategy.Type)
}

// syncStatusOnly writes the status and changes nothing else.
func (dc *Controller) syncStatusOnly(ctx context.Context, d *api.Deployment, rsList []*api.ReplicaSet, view rolloutView) error {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false, view)
	if err != nil {
		return err
	}
	return dc.syncDeploymentStatus(ctx, append(oldRSs, newRS), newRS, d, view)
}

// sync handles a scaling event or a paused Deployment: ReplicaSets are
// resized proportionally but no rollout step is taken; a paused Deployment
// also drops surplus old ReplicaSets.
// Kubernetes: sync.go, sync.
func (dc *Controller) sync(ctx context.Context, d *api.Deployment, rsList []*api.ReplicaSet, view rolloutView) error {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false, view)
	if err != nil {
		return err
	}
	if err := dc.scale(ctx, d, newRS, oldRSs); err != nil {
		// The Deployment is requeued; this sync ends here.
		return err
	}
	if d.Spec.Paused {
		if err := dc.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return err
		}
	}
	return dc.syncDeploymentStatus(ctx, append(oldRSs, newRS), newRS, d, view)
}

// checkPausedConditions sets Progressing to Unknown/DeploymentPaused when
// the Deployment is paused, and to Unknown/DeploymentResumed when it is
// resumed, unless the rollout has already timed out.
// Kubernetes: sync.go, checkPausedConditions.
func (dc *Controller) checkPausedConditions(ctx context.Context, d *api.Deployment) error {
	if !hasProgressDeadline(d) {
		return nil
	}
	cond := getDeploymentCondition(d.Status, DeploymentProgressing)
	if cond != nil && cond.Reason == TimedOutReason {
		// The lack of progress stays reported.
		return nil
	}
	paused := cond != nil && cond.Reason == PausedDeployReason
	now := dc.clock.Now()
	switch {
	case d.Spec.Paused && !paused:
		setDeploymentCondition(&d.Status, newDeploymentCondition(DeploymentProgressing, api.ConditionUnknown, PausedDeployReason, "Deployment is paused", now))
	case !d.Spec.Paused && paused:
		setDeploymentCondition(&d.Status, newDeploymentCondition(DeploymentProgressing, api.ConditionUnknown, ResumedDeployReason, "Deployment is resumed", now))
	default:
		return nil
	}
	return dc.writeStatus(ctx, d)
}

// getAllReplicaSetsAndSyncRevision splits rsList into the new ReplicaSet
// (nil if there is none and createIfNotExisted is false) and the old ones,
// bringing the new one's revision and annotations up to date; view sizes a
// ReplicaSet that is created.
// Kubernetes: sync.go, getAllReplicaSetsAndSyncRevision.
func (dc *Controller) getAllReplicaSetsAndSyncRevision(ctx context.Context, d *api.Deployment, rsList []*api.ReplicaSet, createIfNotExisted bool, view rolloutView) (*api.ReplicaSet, []*api.ReplicaSet, error) {
	_, allOldRSs := findOldReplicaSets(d, rsList)
	newRS, err := dc.getNewReplicaSet(ctx, d, rsList, allOldRSs, createIfNotExisted, view)
	if err != nil {
		return nil, nil, err
	}
	return newRS, allOldRSs, nil
}

// isScalingEvent: some ReplicaSet that wants pods was last sized for
// another spec.replicas than the Deployment's (its desired-replicas
// annotation), so spec.replicas changed and this sync scales rather than
// rolls out. Kubernetes: sync.go, isScalingEvent.
func (dc *Controller) isScalingEvent(ctx context.Context, d *api.Deployment, rsList []*api.ReplicaSet, view rolloutView) (bool, error) {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false, view)
	if err != nil {
		return false, err
	}
	for _, rs := range filterActiveReplicaSets(append(oldRSs, newRS)) {
		desired, ok := intAnnotation(dc.log, rs, DesiredReplicasAnnotation)
		if ok && desired != replicasOf(d) {
			return true, nil
		}
	}
	return false, nil
}

// writeStatus writes d's status (and annotations: the status subresource
// keeps them writable, which is how the revision reaches the Deployment)
// and replaces d with what the server returned, so that a later write in
// the same sync does not conflict with this one.
//
// A conflict usually means the cache had not yet caught up with this
// controller's own previous status write. If the spec is unchanged
// (same generation), the write is made once more on a fresh copy, keeping
// the fresh copy's annotations but this sync's revision: only this
// controller writes the status, so nothing newer is lost. Kubernetes gives
// up and requeues, and a Recreate rollout whose NewReplicaSetCreated was
// lost that way keeps its previous rollout's Progressing message.
func (dc *Controller) writeStatus(ctx context.Context, d *api.Deployment) error {
	dClient := client.For[*api.Deployment](dc.client).Namespace(d.Namespace)
	updated, err := dClient.UpdateStatus(ctx, d, client.UpdateOptions{})
	if api.IsConflict(err) {
		fresh, getErr := dClient.Get(ctx, d.Name, client.GetOptions{})
		if getErr != nil || fresh.UID != d.UID || fresh.Generation != d.Generation {
			return err
		}
		collisions := fresh.Status.CollisionCount
		fresh.Status = d.Status
		// A collision count never goes down: the fresh one may be higher.
		if collisions != nil && (d.Status.CollisionCount == nil || *collisions > *d.Status.CollisionCount) {
			fresh.Status.CollisionCount = collisions
		}
		if rev, ok := d.Annotations[RevisionAnnotation]; ok {
			setDeploymentRevision(fresh, rev)
		}
		updated, err = dClient.UpdateStatus(ctx, fresh, client.UpdateOptions{})
	}
	if err != nil {
		return err
	}
	*d = *updated
	return nil
}
