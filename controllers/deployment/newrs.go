package deployment

import (
	"context"
	"fmt"
	"maps"
	"strconv"

	"kubeloop/api"
	"kubeloop/client"
)

// getNewReplicaSet returns the ReplicaSet whose template is the
// Deployment's, creating it if asked to and there is none.
//
// An existing one gets the Deployment's copyable annotations, the revision
// max(old revisions)+1 if it has a lower one (a rollback makes an old
// ReplicaSet new again; it takes the next revision and remembers its
// previous one in revision-history) and the Deployment's minReadySeconds.
// The Deployment then takes the ReplicaSet's revision.
//
// A new one is named <deployment>-<pod-template-hash>, so that a sync that
// runs twice creates it once: the second Create fails with AlreadyExists.
// If that name is taken by a ReplicaSet with another template (a hash
// collision), status.collisionCount goes up, which changes the hash, and
// the sync is retried.
// Kubernetes: sync.go, getNewReplicaSet.
func (dc *Controller) getNewReplicaSet(ctx context.Context, d *api.Deployment, rsList, oldRSs []*api.ReplicaSet, createIfNotExisted bool, view rolloutView) (*api.ReplicaSet, error) {
	existing := findNewReplicaSet(d, rsList)
	newRevision := strconv.FormatInt(maxRevision(dc.log, oldRSs)+1, 10)
	rsClient := client.For[*api.ReplicaSet](dc.client).Namespace(d.Namespace)
	now := dc.clock.Now()

	if existing != nil {
		rsCopy := existing.DeepCopy()
		annotationsChanged := setNewReplicaSetAnnotations(dc.log, d, rsCopy, newRevision, true, maxRevHistoryLengthInChars)
		if annotationsChanged || rsCopy.Spec.MinReadySeconds != d.Spec.MinReadySeconds {
			rsCopy.Spec.MinReadySeconds = d.Spec.MinReadySeconds
			// The Deployment's revision follows on the next sync, which
			// this update triggers.
			return rsClient.Update(ctx, rsCopy, client.UpdateOptions{})
		}
		needsUpdate := setDeploymentRevision(d, rsCopy.Annotations[RevisionAnnotation])
		// Progress tracking that starts with the ReplicaSet already there
		// (adopted, or a deadline set late) starts counting now.
		if hasProgressDeadline(d) && getDeploymentCondition(d.Status, DeploymentProgressing) == nil {
			msg := fmt.Sprintf("Found new replica set %q", rsCopy.Name)
			setDeploymentCondition(&d.Status, newDeploymentCondition(DeploymentProgressing, api.ConditionTrue, FoundNewRSReason, msg, now))
			needsUpdate = true
		}
		if needsUpdate {
			if err := dc.writeStatus(ctx, d); err != nil {
				return nil, err
			}
		}
		return rsCopy, nil
	}
	if !createIfNotExisted {
		return nil, nil
	}

	template := *d.Spec.Template.DeepCopy()
	hash := ComputeHash(&template, d.Status.CollisionCount)
	template.Labels = withLabel(d.Spec.Template.Labels, DefaultDeploymentUniqueLabelKey, hash)
	selector := d.Spec.Selector.DeepCopy()
	selector.MatchLabels = withLabel(selector.MatchLabels, DefaultDeploymentUniqueLabelKey, hash)
	zero := int32(0)
	newRS := &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{
			Name:            d.Name + "-" + hash,
			Namespace:       d.Namespace,
			OwnerReferences: []api.OwnerReference{newControllerRef(d)},
			Labels:          template.Labels,
		},
		Spec: api.ReplicaSetSpec{
			Replicas:        &zero,
			MinReadySeconds: d.Spec.MinReadySeconds,
			Selector:        selector,
			Template:        template,
		},
	}
	newReplicas, err := newRSNewReplicas(d, append(oldRSs, newRS), newRS, view)
	if err != nil {
		return nil, err
	}
	newRS.Spec.Replicas = &newReplicas
	setNewReplicaSetAnnotations(dc.log, d, newRS, newRevision, false, maxRevHistoryLengthInChars)

	alreadyExists := false
	created, err := rsClient.Create(ctx, newRS, client.CreateOptions{})
	switch {
	case api.IsAlreadyExists(err):
		// A slow cache, or a sync that already created it.
		alreadyExists = true
		rs, getErr := dc.rsLister.Namespace(d.Namespace).Get(newRS.Name)
		if getErr != nil {
			return nil, getErr
		}
		if ref := api.GetControllerOf(&rs.ObjectMeta); ref != nil && ref.UID == d.UID && equalIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
			created, err = rs, nil
			break
		}
		// A hash collision: bump collisionCount and retry.
		pre := int32(0)
		if d.Status.CollisionCount != nil {
			pre = *d.Status.CollisionCount
		}
		next := pre + 1
		d.Status.CollisionCount = &next
		if dErr := dc.writeStatus(ctx, d); dErr == nil {
			dc.log.Info("found a hash collision for deployment - bumping collisionCount to resolve it",
				"key", d.Namespace+"/"+d.Name, "oldCollisionCount", pre, "newCollisionCount", next)
		}
		return nil, err
	case hasStatusCause(err, api.CauseTypeNamespaceTerminating):
		// Every create there fails; nothing to report.
		return nil, err
	case err != nil:
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", newRS.Name, err)
		if hasProgressDeadline(d) {
			setDeploymentCondition(&d.Status, newDeploymentCondition(DeploymentProgressing, api.ConditionFalse, FailedRSCreateReason, msg, now))
			// The create error is the one to report.
			_ = dc.writeStatus(ctx, d)
		}
		dc.recorder.Eventf(d, api.EventTypeWarning, FailedRSCreateReason, msg)
		return nil, err
	}
	if !alreadyExists {
		dc.log.Info("created replica set", "key", d.Namespace+"/"+d.Name, "replicaSet", created.Name, "replicas", newReplicas)
		if newReplicas > 0 {
			dc.recorder.Eventf(d, api.EventTypeNormal, "ScalingReplicaSet", "Scaled up replica set %s to %d from 0", created.Name, newReplicas)
		}
	}

	needsUpdate := setDeploymentRevision(d, newRevision)
	if !alreadyExists && hasProgressDeadline(d) {
		msg := fmt.Sprintf("Created new replica set %q", created.Name)
		setDeploymentCondition(&d.Status, newDeploymentCondition(DeploymentProgressing, api.ConditionTrue, NewReplicaSetReason, msg, now))
		needsUpdate = true
	}
	if needsUpdate {
		err = dc.writeStatus(ctx, d)
	}
	return created, err
}

// withLabel returns a copy of labels with key=value added.
// Kubernetes: pkg/util/labels, CloneAndAddLabel (and CloneSelectorAndAddLabel
// for the selector's matchLabels).
func withLabel(labels map[string]string, key, value string) map[string]string {
	out := maps.Clone(labels)
	if out == nil {
		out = map[string]string{}
	}
	out[key] = value
	return out
}
