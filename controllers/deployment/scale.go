package deployment

import (
	"context"
	"sort"

	"kubeloop/api"
	"kubeloop/client"
)

// scale resizes the ReplicaSets after spec.replicas changed (or while
// paused). With one ReplicaSet that wants pods, it simply takes the new
// size. With several in the middle of a rolling update, the replicas to
// add or remove are shared in proportion to each ReplicaSet's size, so
// that scaling neither hastens nor reverses the rollout: growing only the
// new ReplicaSet would put more of an untried template into service, and
// shrinking only the old ones would do the same.
// Kubernetes: sync.go, scale.
func (dc *Controller) scale(ctx context.Context, d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) error {
	if only := findActiveOrLatest(newRS, oldRSs); only != nil {
		if rsReplicas(only) == replicasOf(d) {
			return nil
		}
		_, _, err := dc.scaleReplicaSetAndRecordEvent(ctx, only, replicasOf(d), d)
		return err
	}
	// A saturated new ReplicaSet (say, one just adopted) leaves nothing
	// for the old ones.
	if isSaturated(dc.log, d, newRS) {
		for _, old := range filterActiveReplicaSets(oldRSs) {
			if _, _, err := dc.scaleReplicaSetAndRecordEvent(ctx, old, 0, d); err != nil {
				return err
			}
		}
		return nil
	}
	if !isRollingUpdate(d) {
		// A Recreate rollout scales old ReplicaSets to 0 first anyway.
		return nil
	}

	allRSs := filterActiveReplicaSets(append(oldRSs, newRS))
	allowedSize := int32(0)
	if replicasOf(d) > 0 {
		allowedSize = replicasOf(d) + maxSurge(d)
	}
	// Replicas to add (or, negative, remove) across the ReplicaSets.
	toAdd := allowedSize - getReplicaCountForReplicaSets(allRSs)

	// Larger ReplicaSets first; among equals, newer first when growing
	// and older first when shrinking.
	var operation string
	switch {
	case toAdd > 0:
		sort.Sort(replicaSetsBySizeNewer(allRSs))
		operation = "up"
	case toAdd < 0:
		sort.Sort(replicaSetsBySizeOlder(allRSs))
		operation = "down"
	}

	added := int32(0)
	sizes := make(map[string]int32, len(allRSs))
	for _, rs := range allRSs {
		if toAdd == 0 {
			sizes[rs.Name] = rsReplicas(rs)
			continue
		}
		p := getProportion(rs, d, toAdd, added)
		sizes[rs.Name] = rsReplicas(rs) + p
		added += p
	}
	for i, rs := range allRSs {
		// Rounding leftovers go to the largest ReplicaSet.
		if i == 0 && toAdd != 0 {
			sizes[rs.Name] = max(0, sizes[rs.Name]+toAdd-added)
		}
		if _, _, err := dc.scaleReplicaSet(ctx, rs, sizes[rs.Name], d, operation); err != nil {
			// The Deployment is requeued; no transactions across objects.
			return err
		}
	}
	return nil
}

// scaleReplicaSetAndRecordEvent resizes rs to newScale if it is not that
// size already. Kubernetes: sync.go, scaleReplicaSetAndRecordEvent.
func (dc *Controller) scaleReplicaSetAndRecordEvent(ctx context.Context, rs *api.ReplicaSet, newScale int32, d *api.Deployment) (bool, *api.ReplicaSet, error) {
	if rsReplicas(rs) == newScale {
		return false, rs, nil
	}
	operation := "down"
	if rsReplicas(rs) < newScale {
		operation = "up"
	}
	return dc.scaleReplicaSet(ctx, rs, newScale, d, operation)
}

// scaleReplicaSet writes rs's size and the desired-replicas and
// max-replicas annotations (the Deployment's size they were computed
// for), with the ReplicaSet's resourceVersion: a decision taken on a stale
// copy fails with a conflict rather than overwrite a newer one.
// Kubernetes: sync.go, scaleReplicaSet.
func (dc *Controller) scaleReplicaSet(ctx context.Context, rs *api.ReplicaSet, newScale int32, d *api.Deployment, operation string) (bool, *api.ReplicaSet, error) {
	sizeNeedsUpdate := rsReplicas(rs) != newScale
	maxReplicas := replicasOf(d) + maxSurge(d)
	if !sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, replicasOf(d), maxReplicas) {
		return false, rs, nil
	}
	oldScale := rsReplicas(rs)
	rsCopy := rs.DeepCopy()
	rsCopy.Spec.Replicas = &newScale
	setReplicasAnnotations(rsCopy, replicasOf(d), maxReplicas)
	updated, err := client.For[*api.ReplicaSet](dc.client).Namespace(rs.Namespace).Update(ctx, rsCopy, client.UpdateOptions{})
	if err != nil {
		return false, rs, err
	}
	if !sizeNeedsUpdate {
		return false, updated, nil
	}
	dc.log.Info("scaled replica set", "key", d.Namespace+"/"+d.Name, "replicaSet", rs.Name, "from", oldScale, "to", newScale)
	dc.recorder.Eventf(d, api.EventTypeNormal, "ScalingReplicaSet", "Scaled %s replica set %s to %d from %d", operation, rs.Name, newScale, oldScale)
	return true, updated, nil
}

// cleanupDeployment deletes the oldest old ReplicaSets beyond
// revisionHistoryLimit. Only empty ones go (no pods wanted or left, and
// their controller has seen that), so a rollback target with pods is never
// lost mid-rollout. Kubernetes: sync.go, cleanupDeployment.
func (dc *Controller) cleanupDeployment(ctx context.Context, oldRSs []*api.ReplicaSet, d *api.Deployment) error {
	if !hasRevisionHistoryLimit(d) {
		return nil
	}
	var cleanable []*api.ReplicaSet
	for _, rs := range oldRSs {
		if rs != nil && rs.DeletionTimestamp == nil {
			cleanable = append(cleanable, rs)
		}
	}
	diff := int32(len(cleanable)) - *d.Spec.RevisionHistoryLimit
	if diff <= 0 {
		return nil
	}
	sort.Sort(replicaSetsByRevision(cleanable))
	rsClient := client.For[*api.ReplicaSet](dc.client).Namespace(d.Namespace)
	for _, rs := range cleanable[:diff] {
		if rs.Status.Replicas != 0 || rsReplicas(rs) != 0 || rs.Generation > rs.Status.ObservedGeneration {
			continue
		}
		dc.log.Info("deleting old replica set", "key", d.Namespace+"/"+d.Name, "replicaSet", rs.Name)
		// The UID precondition makes sure it is still the one we looked at
		// (Kubernetes sends none).
		uid := rs.UID
		err := rsClient.Delete(ctx, rs.Name, api.DeleteOptions{Preconditions: &api.Preconditions{UID: &uid}})
		if err != nil && !api.IsNotFound(err) {
			// Stop rather than keep hammering a struggling apiserver.
			return err
		}
	}
	return nil
}
