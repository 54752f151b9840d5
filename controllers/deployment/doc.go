// Package deployment is the Deployment controller: it rolls a Deployment's
// pod template out by way of ReplicaSets. Each template the Deployment has
// had is one ReplicaSet, named <deployment>-<pod-template-hash>; the one
// matching the current template is the "new" ReplicaSet, the others are
// "old". A rollout grows the new one and shrinks the old ones, within the
// strategy's limits, until only the new one has pods. The pods themselves
// are the ReplicaSet controller's business.
//
// # On the spine
//
// One level above "scale to 5": `kubectl set image deployment/web ...`
// changes spec.template; the Deployment informer's handler enqueues
// "namespace/web"; syncDeployment finds no ReplicaSet with that template,
// creates one (sized by maxSurge), and writes the status. The ReplicaSet
// controller creates its pods; as they become ready its status updates
// wake this controller again (ReplicaSet events), which shrinks an old
// ReplicaSet by as many pods as availability allows, and so on, one step
// per sync, until the rollout is complete. Every step is computed afresh
// from the caches (level-triggered), so a controller manager that dies
// mid-rollout is replaced by one that carries on from the ReplicaSets'
// sizes as they are.
//
// # The pieces
//
//   - controller.go: the sample-controller skeleton (Deployment, ReplicaSet
//     and Pod informers; handlers that only enqueue; workers; handleErr with
//     maxRetries).
//   - handlers.go: which Deployment each event wakes (ReplicaSets through
//     their controller reference or, for orphans, by selector; pod deletions
//     for Recreate).
//   - claim.go: adoption and release of ReplicaSets by controller
//     ownerReferences; the pods of each ReplicaSet.
//   - sync.go: syncDeployment and its precedence (deleted → status only;
//     paused → sync; scaling event → sync; else the strategy), the paused
//     conditions, isScalingEvent. newrs.go: finding or creating the new
//     ReplicaSet, its revision and the hash collision count.
//   - rolling.go: RollingUpdate (reconcileNewReplicaSet, then
//     reconcileOldReplicaSets). recreate.go: Recreate.
//   - scale.go: proportional scaling, resizing one ReplicaSet with its
//     event, and the revisionHistoryLimit cleanup.
//   - status.go and progress.go: the status, the Available condition and
//     the Progressing condition with its deadline.
//   - fenceposts.go (maxSurge rounds up, maxUnavailable rounds down, never
//     both 0), annotations.go (revision, revision-history, desired-replicas,
//     max-replicas), replicasets.go (new/old, sorting, proportions),
//     conditions.go, podcounts.go (see below), hash.go (pod-template-hash).
//
// # Kubernetes counterparts (release v1.37.2)
//
//   - pkg/controller/deployment/deployment_controller.go:
//     NewDeploymentController, Run, addDeployment ... deletePod,
//     resolveControllerRef, getReplicaSetsForDeployment,
//     getPodMapForDeployment, syncDeployment, handleErr.
//   - pkg/controller/deployment/sync.go: syncStatusOnly, sync,
//     checkPausedConditions, getAllReplicaSetsAndSyncRevision,
//     getNewReplicaSet, scale, scaleReplicaSet(AndRecordEvent),
//     cleanupDeployment, syncDeploymentStatus, calculateStatus,
//     isScalingEvent.
//   - pkg/controller/deployment/rolling.go, recreate.go, progress.go.
//   - pkg/controller/deployment/util/deployment_util.go: the annotations,
//     condition reasons, SetNewReplicaSetAnnotations, MaxSurge,
//     MaxUnavailable, ResolveFenceposts, GetProportion, FindNewReplicaSet,
//     EqualIgnoreHash, DeploymentComplete/Progressing/TimedOut,
//     NewRSNewReplicas, IsSaturated.
//   - pkg/controller/controller_utils.go: ComputeHash, the ReplicaSet sort
//     orders, FilterActiveReplicaSets; controller_ref_manager.go:
//     ReplicaSetControllerRefManager.
//
// # What we do differently
//
//   - Rollout steps count pods, not just ReplicaSet sizes (podcounts.go):
//     a ReplicaSet counts as running max(spec.replicas, its live pods) and
//     as having available the fewer of its status and the pod cache, less
//     the pods it is about to delete. Kubernetes trusts spec and status,
//     which trail reality by one ReplicaSet sync, and so can briefly exceed
//     maxSurge or maxUnavailable; kubeloop's tests check both limits on
//     every pod event. A step the pod cache holds back is retried after a
//     second if no event comes first (rolloutView.lagging).
//   - status.terminatingReplicas counts terminating pods from the cache
//     (the ReplicaSet controller does not report it); it is always set.
//   - No extensions/v1beta1 rollbackTo (the deprecated.deployment.rollback.to
//     annotation): rollback is what `kubectl rollout undo` does, a patch of
//     the template, after which the old ReplicaSet is the new one again and
//     takes the next revision.
//   - No PodReplacementPolicy (alpha), no in-place updates, no metrics.
//   - Adoption and release are JSON patches with "test" preconditions, as
//     in the ReplicaSet controller; old ReplicaSets are deleted with a UID
//     precondition.
//   - Writes made during a sync are carried forward (the object the
//     server returned replaces the Deployment being synced), so a sync that
//     writes the status twice does not conflict with itself.
package deployment
