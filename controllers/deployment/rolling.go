package deployment

import (
	"context"
	"fmt"
	"sort"

	"kubeloop/api"
)

// rolloutRolling takes one step of a rolling update: grow the new
// ReplicaSet as far as maxSurge allows; if it could not grow, shrink the
// old ones as far as maxUnavailable allows; once the rollout is complete,
// delete surplus old ReplicaSets. Then report the status. The next step
// comes with the next event (a ReplicaSet scaled, pods ready).
// Kubernetes: rolling.go, rolloutRolling.
func (dc *Controller) rolloutRolling(ctx context.Context, d *api.Deployment, rsList []*api.ReplicaSet, view rolloutView) error {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true, view)
	if err != nil {
		return err
	}
	allRSs := append(oldRSs, newRS)

	scaledUp, err := dc.reconcileNewReplicaSet(ctx, allRSs, newRS, d, view)
	if err != nil {
		return err
	}
	if scaledUp {
		return dc.syncRolloutStatus(ctx, allRSs, newRS, d, view)
	}
	scaledDown, err := dc.reconcileOldReplicaSets(ctx, allRSs, filterActiveReplicaSets(oldRSs), newRS, d, view)
	if err != nil {
		return err
	}
	if scaledDown {
		return dc.syncRolloutStatus(ctx, allRSs, newRS, d, view)
	}
	if view.lagging(allRSs) {
		dc.enqueueAfter(d, viewRecheckDelay)
	}
	if deploymentComplete(d, &d.Status) {
		if err := dc.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return err
		}
	}
	return dc.syncRolloutStatus(ctx, allRSs, newRS, d, view)
}

// reconcileNewReplicaSet grows the new ReplicaSet towards spec.replicas
// within maxSurge, or shrinks it if it is larger.
// Kubernetes: rolling.go, reconcileNewReplicaSet.
func (dc *Controller) reconcileNewReplicaSet(ctx context.Context, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment, view rolloutView) (bool, error) {
	switch {
	case rsReplicas(newRS) == replicasOf(d):
		return false, nil
	case rsReplicas(newRS) > replicasOf(d):
		scaled, _, err := dc.scaleReplicaSetAndRecordEvent(ctx, newRS, replicasOf(d), d)
		return scaled, err
	}
	n, err := newRSNewReplicas(d, allRSs, newRS, view)
	if err != nil {
		return false, err
	}
	scaled, _, err := dc.scaleReplicaSetAndRecordEvent(ctx, newRS, n, d)
	return scaled, err
}

// newRSNewReplicas is the size the new ReplicaSet may grow to now: for a
// rolling update, up to replicas+maxSurge pods in all, never above
// spec.replicas; for Recreate, spec.replicas at once.
//
// Kubernetes counts the pods of each ReplicaSet as its spec.replicas;
// kubeloop also counts pods an old ReplicaSet no longer wants but still
// runs (rolloutView.surgeCount), so the surge limit holds for the pods that
// exist, not only for the ones wanted.
// Kubernetes: util.NewRSNewReplicas.
func newRSNewReplicas(d *api.Deployment, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, view rolloutView) (int32, error) {
	switch d.Spec.Strategy.Type {
	case RollingUpdateDeploymentStrategyType:
		surge, _ := rollingParams(d)
		if surge == nil {
			zero := api.FromInt32(0)
			surge = &zero
		}
		maxSurge, err := getScaledValueFromIntOrPercent(surge, int(replicasOf(d)), true)
		if err != nil {
			return 0, err
		}
		current := view.totalSurge(allRSs)
		maxTotal := replicasOf(d) + int32(maxSurge)
		if current >= maxTotal {
			return rsReplicas(newRS), nil
		}
		up := min(maxTotal-current, replicasOf(d)-rsReplicas(newRS))
		return rsReplicas(newRS) + up, nil
	case RecreateDeploymentStrategyType:
		return replicasOf(d), nil
	}
	return 0, fmt.Errorf("deployment type %v isn't supported", d.Spec.Strategy.Type)
}

// reconcileOldReplicaSets shrinks the old ReplicaSets as far as
// availability allows. It never removes more than
//
//	allPods − minAvailable − unavailable pods of the new ReplicaSet
//
// because the new ReplicaSet's unavailable pods (not ready yet, or never
// becoming ready) must not let old pods go that would then be missed. Old
// pods that are unavailable anyway go first (cleanupUnhealthyReplicas):
// removing them costs no availability, and keeping them could stall the
// rollout. Kubernetes: rolling.go, reconcileOldReplicaSets.
func (dc *Controller) reconcileOldReplicaSets(ctx context.Context, allRSs, oldRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment, view rolloutView) (bool, error) {
	if getReplicaCountForReplicaSets(oldRSs) == 0 {
		return false, nil
	}
	allPods := getReplicaCountForReplicaSets(allRSs)
	newUnavailable := rsReplicas(newRS) - view.availableCount(newRS)
	maxScaledDown := allPods - minAvailable(d) - newUnavailable
	if maxScaledDown <= 0 {
		return false, nil
	}
	oldRSs, cleaned, err := dc.cleanupUnhealthyReplicas(ctx, oldRSs, d, maxScaledDown, view)
	if err != nil {
		// As Kubernetes: report no progress and let the next event retry.
		return false, nil
	}
	scaledDown, err := dc.scaleDownOldReplicaSetsForRollingUpdate(ctx, append(oldRSs, newRS), oldRSs, d, view)
	if err != nil {
		return false, nil
	}
	return cleaned+scaledDown > 0, nil
}

// cleanupUnhealthyReplicas shrinks old ReplicaSets by their unavailable
// pods, oldest ReplicaSet first, at most maxCleanup in all. The ReplicaSet
// controller deletes not-ready pods before ready ones, so this removes
// exactly the unhealthy pods. Kubernetes: rolling.go, cleanupUnhealthyReplicas.
func (dc *Controller) cleanupUnhealthyReplicas(ctx context.Context, oldRSs []*api.ReplicaSet, d *api.Deployment, maxCleanup int32, view rolloutView) ([]*api.ReplicaSet, int32, error) {
	oldRSs = append([]*api.ReplicaSet(nil), oldRSs...)
	sort.Sort(replicaSetsByCreationTimestamp(oldRSs))
	total := int32(0)
	for i, rs := range oldRSs {
		if total >= maxCleanup {
			break
		}
		unhealthy := rsReplicas(rs) - view.availableCount(rs)
		if rsReplicas(rs) == 0 || unhealthy <= 0 {
			continue
		}
		down := min(maxCleanup-total, unhealthy)
		_, updated, err := dc.scaleReplicaSetAndRecordEvent(ctx, rs, rsReplicas(rs)-down, d)
		if err != nil {
			return nil, total, err
		}
		total += down
		oldRSs[i] = updated
	}
	return oldRSs, total, nil
}

// scaleDownOldReplicaSetsForRollingUpdate shrinks old ReplicaSets, oldest
// first, by as many pods as are available above minAvailable.
// Kubernetes: rolling.go, scaleDownOldReplicaSetsForRollingUpdate.
func (dc *Controller) scaleDownOldReplicaSetsForRollingUpdate(ctx context.Context, allRSs, oldRSs []*api.ReplicaSet, d *api.Deployment, view rolloutView) (int32, error) {
	available := view.totalAvailable(allRSs)
	if available <= minAvailable(d) {
		return 0, nil
	}
	oldRSs = append([]*api.ReplicaSet(nil), oldRSs...)
	sort.Sort(replicaSetsByCreationTimestamp(oldRSs))
	want := available - minAvailable(d)
	total := int32(0)
	for _, rs := range oldRSs {
		if total >= want {
			break
		}
		if rsReplicas(rs) == 0 {
			continue
		}
		down := min(rsReplicas(rs), want-total)
		if _, _, err := dc.scaleReplicaSetAndRecordEvent(ctx, rs, rsReplicas(rs)-down, d); err != nil {
			return total, err
		}
		total += down
	}
	return total, nil
}
