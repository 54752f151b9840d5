// Package replicaset is the ReplicaSet controller: it keeps, for every
// ReplicaSet, exactly spec.replicas active pods that match its selector,
// creating them from spec.template or deleting the cheapest to lose, and
// reports what it sees in the ReplicaSet's status.
//
// # On the spine
//
// Spine arrows 4 and 5 of "scale to 5" (docs/architecture.md); reading-path
// step 7 (docs/reading-path.md). A client raises
// spec.replicas; the ReplicaSet informer's handler enqueues the key
// "namespace/name"; a worker runs syncReplicaSet, which re-reads the world
// from the informer caches (level-triggered: it does not care which event
// woke it), and creates the missing pods through the API. The scheduler and
// kubelet take it from there (spine arrows 6–10), and their pod status writes come back
// here as pod updates that refresh the ReplicaSet's status.
//
// # The pieces
//
//   - controller.go: the sample-controller skeleton — NewController wires
//     the ReplicaSet and Pod informers to handlers that only enqueue keys;
//     Run waits until the handlers have seen the caches' initial lists
//     (the registrations' HasSynced, so no initial pod can reach addPod
//     after a sync has set expectations); Run is the worker loop every
//     controller shares (controllers/worker): Get / Done / Forget or
//     AddRateLimited.
//   - handlers.go: which keys each event wakes, and the expectation
//     observations (a pod added by us lowers the creations, a pod deleted
//     lowers the deletions).
//   - expectations.go: ControllerExpectations. The caches trail the
//     controller's own writes; without expectations a sync that runs before
//     the informer reports the pods it just created would create them again
//     (the "create storm"). A sync only creates or deletes once the previous
//     round has been observed, or after ExpectationsTimeout (5 min).
//   - sync.go: syncReplicaSet, manageReplicas, slowStartBatch (creations in
//     batches of 1, 2, 4, ... stopping at the first failing batch, at most
//     BurstReplicas per sync), pod creation from the template and deletion.
//   - claim.go: adoption and release through controller ownerReferences.
//   - ranking.go: which pods go first on scale-down (ActivePodsWithRanks).
//   - status.go: calculateStatus and a status write only when it changed.
//
// # Kubernetes counterparts (release v1.37.2)
//
//   - pkg/controller/replicaset/replica_set.go: NewBaseController, Run,
//     addRS/updateRS/deleteRS, addPod/updatePod/deletePod,
//     resolveControllerRef, getPodReplicaSets, processNextWorkItem,
//     syncReplicaSet, claimPods, manageReplicas, slowStartBatch,
//     getIndirectlyRelatedPods, getPodsToDelete,
//     getPodsRankedByRelatedPodsOnSameNode.
//   - pkg/controller/replicaset/replica_set_utils.go: calculateStatus,
//     updateReplicaSetStatus.
//   - pkg/controller/controller_utils.go: ControllerExpectations,
//     UIDTrackingControllerExpectations, ExpectationsTimeout,
//     ActivePodsWithRanks.Less, FilterActivePods, IsPodActive,
//     RealPodControl.CreatePods/DeletePod, GetPodFromTemplate.
//   - pkg/controller/controller_ref_manager.go: PodControllerRefManager,
//     ClaimPods, AdoptPod, ReleasePod, RecheckDeletionTimestamp.
//
// # What we simplify
//
//   - Adoption and release are JSON patches whose "test" operations (pod UID
//     and the ownerReferences the cache showed) stand in for Kubernetes'
//     strategic merge patch with a UID precondition: kubeloop's apiserver
//     speaks only JSON and merge patches. A failed test is 422, treated like
//     Kubernetes treats a conflicting adoption (retry) or release (ignore).
//   - For a ReplicaSet with no controller, the same-node rank counts its own
//     pods (Kubernetes finds no related pods and ranks them all 0).
//   - No ReplicationController flavour (Kubernetes shares this code with
//     it through a GroupVersionKind), no metrics of the ranking, no
//     terminating-replicas status field, and one ControllerExpectations type
//     rather than an interface and a UID-tracking wrapper.
//   - The pod-deletion-cost and logarithmic scale-down rules are always on
//     (feature gates PodDeletionCost and LogarithmicScaleDown, on by default
//     in Kubernetes).
package replicaset
