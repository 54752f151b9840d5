package deployment

import (
	"context"

	"kubeloop/api"
)

// rolloutRecreate takes one step of a Recreate rollout: scale every old
// ReplicaSet to 0; wait until no old pod is left, not even a terminating
// one; only then create (or grow) the new ReplicaSet. Old and new pods
// never run side by side.
// Kubernetes: recreate.go, rolloutRecreate.
func (dc *Controller) rolloutRecreate(ctx context.Context, d *api.Deployment, rsList []*api.ReplicaSet, podMap map[string][]*api.Pod, view rolloutView) error {
	// Do not create the new ReplicaSet yet: that would scale up before
	// scaling down.
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false, view)
	if err != nil {
		return err
	}
	allRSs := append(oldRSs, newRS)

	scaledDown, err := dc.scaleDownOldReplicaSetsForRecreate(ctx, filterActiveReplicaSets(oldRSs), d)
	if err != nil {
		return err
	}
	if scaledDown {
		return dc.syncRolloutStatus(ctx, allRSs, newRS, d, view)
	}
	// deletePod wakes us when the last one is gone.
	if oldPodsRunning(newRS, oldRSs, podMap) {
		return dc.syncRolloutStatus(ctx, allRSs, newRS, d, view)
	}
	if newRS == nil {
		newRS, oldRSs, err = dc.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true, view)
		if err != nil {
			return err
		}
		allRSs = append(oldRSs, newRS)
	}
	if _, _, err := dc.scaleReplicaSetAndRecordEvent(ctx, newRS, replicasOf(d), d); err != nil {
		return err
	}
	if deploymentComplete(d, &d.Status) {
		if err := dc.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return err
		}
	}
	return dc.syncRolloutStatus(ctx, allRSs, newRS, d, view)
}

// scaleDownOldReplicaSetsForRecreate scales every old ReplicaSet to 0.
// Kubernetes: recreate.go, scaleDownOldReplicaSetsForRecreate.
func (dc *Controller) scaleDownOldReplicaSetsForRecreate(ctx context.Context, oldRSs []*api.ReplicaSet, d *api.Deployment) (bool, error) {
	scaled := false
	for _, rs := range oldRSs {
		if rsReplicas(rs) == 0 {
			continue
		}
		ok, _, err := dc.scaleReplicaSetAndRecordEvent(ctx, rs, 0, d)
		if err != nil {
			return false, err
		}
		scaled = scaled || ok
	}
	return scaled, nil
}

// oldPodsRunning: an old ReplicaSet still reports pods, or the cache still
// holds an old pod that has not finished (running, pending, unknown or
// terminating). Kubernetes: recreate.go, oldPodsRunning.
func oldPodsRunning(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet, podMap map[string][]*api.Pod) bool {
	if getActualReplicaCountForReplicaSets(oldRSs) > 0 {
		return true
	}
	for uid, pods := range podMap {
		if newRS != nil && newRS.UID == uid {
			continue
		}
		for _, p := range pods {
			if p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
				return true
			}
		}
	}
	return false
}
