// Package ttlafterfinished is the TTL-after-finished controller: it deletes
// a Job spec.ttlSecondsAfterFinished seconds after the Job finished (the
// lastTransitionTime of its Complete or Failed condition), and the garbage
// collector deletes the Job's pods with it.
//
// # On the spine
//
// A controller whose only write is a delete. The Job controller writes the
// terminal condition; this controller's informer sees the update, and the
// key waits in the delaying queue (AddAfter) until the TTL runs out — no
// timer per Job and no polling. The delete is a foreground cascade: the
// apiserver gives the Job the foregroundDeletion finalizer, the garbage
// collector deletes the pods (the Job controller takes their tracking
// finalizers off as they go) and then the Job.
//
// # Kubernetes counterpart (release v1.37.2)
//
//   - pkg/controller/ttlafterfinished/ttlafterfinished_controller.go: New,
//     Run, addJob, updateJob, processNextWorkItem, processJob, processTTL,
//     needsCleanup, timeLeft, jobFinishTime.
//
// # What we simplify
//
//   - No events (Kubernetes builds a recorder but records nothing) and no
//     job_deletion_duration_seconds metric.
//   - A delete that meets a namesake (UID precondition failed) is dropped
//     rather than retried: the namesake's own events bring it here.
package ttlafterfinished
