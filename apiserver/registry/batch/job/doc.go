// Package job is the registry of Jobs: their strategy and the REST storage
// of jobs and jobs/status.
//
// Where it sits on the spine: `kubectl create job` and the job controller's
// status writes land here. On create the strategy gives the Job a selector
// nobody else can match — its own uid, in the batch.kubernetes.io/controller-uid
// label it also puts on the pod template — so that the controller only ever
// counts the pods it made.
//
// Kubernetes counterparts (v1.37.2): pkg/registry/batch/job/strategy.go
// (jobStrategy.DefaultGarbageCollectionPolicy, PrepareForCreate,
// generateSelectorIfNeeded, generateSelector,
// PrepareForUpdate, Validate, ValidateUpdate, validationOptionsForJob,
// JobToSelectableFields; jobStatusStrategy) and
// pkg/registry/batch/job/storage/storage.go (NewStorage).
//
// What we simplify: no feature gates (every Job field of v1.37.2 is
// served) and no warnings. A status write checks the counters but not the
// transitions Kubernetes checks for Jobs of other controllers
// (ValidateJobUpdateStatus with the JobManagedBy options).
package job
