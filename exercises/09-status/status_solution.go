//go:build solution

package status

import (
	"context"
	"errors"
	"fmt"
	"time"

	"kubeloop/api"
	"kubeloop/client"
)

// ErrNotImplemented is what the stub returns.
var ErrNotImplemented = errors.New("not implemented yet")

// calculateStatus copies the conditions slice before changing it: the
// status it starts from shares its array with the cached object.
func calculateStatus(d *api.Deployment, pods []*api.Pod, now time.Time) api.DeploymentStatus {
	status := d.Status
	status.Conditions = append([]api.DeploymentCondition(nil), d.Status.Conditions...)
	status.ObservedGeneration = d.Generation

	var ready int32
	for _, p := range pods {
		if isPodReady(p) {
			ready++
		}
	}
	want := int32(1)
	if d.Spec.Replicas != nil {
		want = *d.Spec.Replicas
	}
	status.Replicas = int32(len(pods))
	status.ReadyReplicas = ready
	status.AvailableReplicas = ready
	status.UnavailableReplicas = max(want-ready, 0)

	cond := api.DeploymentCondition{Type: api.DeploymentAvailable, Status: api.ConditionTrue,
		Reason: MinimumReplicasAvailable, Message: AvailableMessage}
	if ready < want {
		cond.Status, cond.Reason, cond.Message = api.ConditionFalse, MinimumReplicasUnavailable, UnavailableMessage
	}
	cond.LastUpdateTime, cond.LastTransitionTime = api.NewTime(now), api.NewTime(now)
	setDeploymentCondition(&status, cond)
	return status
}

// setDeploymentCondition is Kubernetes' rule; it is what makes a second
// pass over an unchanged world compute a byte-identical status.
func setDeploymentCondition(status *api.DeploymentStatus, cond api.DeploymentCondition) {
	cur := getCondition(*status, cond.Type)
	if cur != nil && cur.Status == cond.Status && cur.Reason == cond.Reason {
		return
	}
	if cur != nil && cur.Status == cond.Status {
		cond.LastTransitionTime = cur.LastTransitionTime
	}
	kept := status.Conditions[:0:0]
	for _, c := range status.Conditions {
		if c.Type != cond.Type {
			kept = append(kept, c)
		}
	}
	status.Conditions = append(kept, cond)
}

// syncDeployment compares the whole status, observedGeneration included: a
// new spec with the same pods is still a change to report.
func (c *Controller) syncDeployment(ctx context.Context, key string) error {
	ns, name, err := api.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	d, err := c.dLister.Namespace(ns).Get(name)
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	pods, err := c.podsOf(d)
	if err != nil {
		return nil // a selector that does not parse; validation should stop it
	}
	status := calculateStatus(d, pods, c.clock.Now())
	if api.SemanticEqual(&d.Status, &status) {
		return nil
	}
	updated := d.DeepCopy()
	updated.Status = status
	if _, err := client.For[*api.Deployment](c.client).Namespace(ns).UpdateStatus(ctx, updated, client.UpdateOptions{}); err != nil {
		if api.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("update status of %s: %w", key, err)
	}
	c.log.Info("status", "key", key, "observedGeneration", status.ObservedGeneration,
		"replicas", status.Replicas, "ready", status.ReadyReplicas)
	return nil
}
