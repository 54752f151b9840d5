// Package job is the Job controller: it runs a Job's pods until enough of
// them have succeeded (spec.completions, at most spec.parallelism at a
// time), replaces failed ones after a back-off until spec.backoffLimit is
// exceeded or spec.activeDeadlineSeconds passes, and records the outcome as
// the Job's conditions and counters.
//
// # On the spine
//
// The same loop as the ReplicaSet controller's (spine arrows 4–5,
// reading-path step 7, docs/reading-path.md),
// with a different reconcile: a ReplicaSet wants N pods running forever, a
// Job wants N pods to have finished. Its pods run commands that end (the
// kubelet's tiny shell, kubelet/runtime/shell.go), the kubelet reports
// them Succeeded or Failed, and those pod updates wake syncJob here.
//
// # Counting without losing a pod
//
// Every pod the controller creates carries the finalizer
// batch.kubernetes.io/job-tracking, so it cannot disappear before it has
// been counted. A finished pod is first written into
// status.uncountedTerminatedPods, then its finalizer is removed, then it
// moves into status.succeeded or status.failed (status.go). Deleting a
// finished pod, or restarting the controller between any two steps, loses
// and double-counts nothing.
//
// # The pieces
//
//   - controller.go: the sample-controller skeleton, plus a second queue
//     for orphan pods whose finalizer no Job will remove.
//   - handlers.go: which Job each pod event wakes (batched by 1 s), and
//     the expectations it feeds.
//   - sync.go: syncJob — counts, the failure verdicts (BackoffLimitExceeded,
//     DeadlineExceeded), completion, suspension.
//   - manage.go: manageJob — pods to create (slow start, after the
//     pod-failure back-off) or delete (suspend, scale-down).
//   - status.go and tracking.go: finalizer-based counting and the order of
//     the conditions: FailureTarget then Failed, SuccessCriteriaMet then
//     Complete, the terminal one only when no pod is uncounted or
//     terminating.
//   - indexed.go: Indexed completion mode — an index per pod (annotation,
//     label, hostname <job>-<index>, JOB_COMPLETION_INDEX), and
//     status.completedIndexes written as Kubernetes does ("1,3-5").
//   - backoff.go: the pod-failure back-off, 10 s doubling per failure since
//     the last success, capped at 10 min.
//   - claim.go: adoption and release, which add and remove the finalizer.
//   - conditions.go: condition helpers and IsJobFinished.
//
// # Kubernetes counterparts (release v1.37.2)
//
//   - pkg/controller/job/job_controller.go: NewController, Run,
//     addPod/updatePod/deletePod, addJob/updateJob/deleteJob, syncOrphanPod,
//     getPodsForJob, syncJob, deleteActivePods, deleteJobPods,
//     trackJobStatusAndRemoveFinalizers, flushUncountedAndRemoveFinalizers,
//     cleanUncountedPodsWithoutFinalizers, removeTrackingFinalizerFromPods,
//     enactJobFinished, recordJobFinished, pastBackoffLimitOnFailure,
//     pastActiveDeadline, manageJob, activePodsForRemoval,
//     ensureJobConditionStatus, isPodFailed.
//   - pkg/controller/job/indexed_job_utils.go: orderedIntervals,
//     calculateSucceededIndexes, firstPendingIndexes,
//     appendDuplicatedIndexPodsForRemoval, getCompletionIndex,
//     podGenerateNameWithIndex.
//   - pkg/controller/job/backoff_utils.go: backoffStore, newBackoffRecord,
//     getFinishedTime, getRemainingTimeForFailuresCount.
//   - pkg/controller/job/tracking_utils.go: uidTrackingExpectations.
//   - pkg/controller/job/util/utils.go: IsJobFinished.
//   - pkg/controller/controller_utils.go and controller_ref_manager.go:
//     ControllerExpectations (reused from package replicaset),
//     ActivePods.Less, PodControllerRefManager with finalizers.
//
// # What we simplify
//
//   - No podFailurePolicy rules, successPolicy, backoffLimitPerIndex or
//     maxFailedIndexes (the fields are stored and served; the controller
//     ignores them, except that a podFailurePolicy, like
//     podReplacementPolicy Failed, makes terminating pods wait before they
//     are replaced), no metrics beyond the workqueues'.
//   - The terminal conditions are always delayed until the pods have
//     stopped (Kubernetes does so whenever JobManagedBy or
//     JobPodReplacementPolicy is on, both GA), and status.terminating is
//     always reported.
//   - Deletions in expectations are tracked by pod key (the ReplicaSet
//     controller's type), not just counted.
package job
