//go:build !solution

package status

import (
	"context"
	"errors"
	"fmt"
	"time"

	"kubeloop/api"
)

// This is your file. Write the three functions; keep the signatures.
// Run the grader with: go test -tags exercise ./exercises/09-status/

// ErrNotImplemented is what the stub returns.
var ErrNotImplemented = errors.New("not implemented yet")

// calculateStatus is the status d should have, given the pods it selects:
//
//   - ObservedGeneration: d.Generation, the spec this status describes;
//   - Replicas: len(pods); ReadyReplicas and AvailableReplicas: the pods
//     that are ready (isPodReady; minReadySeconds is not modelled);
//   - UnavailableReplicas: spec.replicas (1 if unset) minus the available
//     pods, never below zero;
//   - the condition Available: True with reason MinimumReplicasAvailable
//     and AvailableMessage when every one of spec.replicas is available,
//     else False, MinimumReplicasUnavailable, UnavailableMessage; set with
//     setDeploymentCondition, stamped with now.
//
// Start from a copy of d.Status (its other fields and conditions are kept),
// and do not change d: it comes from the informer's cache.
func calculateStatus(d *api.Deployment, pods []*api.Pod, now time.Time) api.DeploymentStatus {
	// TODO
	return api.DeploymentStatus{}
}

// setDeploymentCondition puts cond into status, replacing the condition of
// its type, the way Kubernetes does: if that condition already has the same
// status and reason, leave it exactly as it is (its times too); if only the
// reason changed, keep its LastTransitionTime. A condition's times move
// only when the condition changes.
func setDeploymentCondition(status *api.DeploymentStatus, cond api.DeploymentCondition) {
	// TODO
}

// syncDeployment writes d's status if, and only if, it changed: read the
// Deployment and its pods from the cache (c.dLister, c.podsOf); compute the
// status with c.clock.Now(); if it equals d.Status (api.SemanticEqual), do
// nothing; else write a DeepCopy carrying the new status with
// client.For[*api.Deployment](c.client).Namespace(ns).UpdateStatus. A
// Deployment that is gone is not an error; a failed write is (the key is
// retried with the newer object).
func (c *Controller) syncDeployment(ctx context.Context, key string) error {
	// TODO
	return fmt.Errorf("syncDeployment %q: %w", key, ErrNotImplemented)
}
