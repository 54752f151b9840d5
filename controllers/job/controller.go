package job

import (
	"context"
	"log/slog"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/controllers/replicaset"
	"kubeloop/controllers/worker"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/workqueue"
)

// ControllerName names the controller in logs, events and metrics.
const ControllerName = "job-controller"

// Kubernetes' tuning of the Job controller (job_controller.go).
const (
	// syncJobBatchPeriod: pod events wake a Job this much later, so that a
	// burst of pod updates costs one sync.
	syncJobBatchPeriod = time.Second
	// The retry back-off of a failed sync (DefaultJobApiBackOff, MaxJobApiBackOff).
	defaultJobAPIBackOff = time.Second
	maxJobAPIBackOff     = time.Minute
	// MaxUncountedPods caps status.uncountedTerminatedPods (about 20 KB of
	// UIDs) and so the finalizer removals of one sync.
	MaxUncountedPods = 500
	// MaxPodCreateDeletePerSync caps the pods one sync creates or deletes.
	MaxPodCreateDeletePerSync = 500
)

// Options tune a Controller; the zero value is Kubernetes' defaults.
type Options struct {
	// PodFailureBackOff and MaxPodFailureBackOff bound the delay before a
	// failed pod is replaced (10 s doubling to 10 min); tests shorten them.
	PodFailureBackOff    time.Duration
	MaxPodFailureBackOff time.Duration
	// Clock drives start times, deadlines and back-offs (nil = wall clock).
	Clock workqueue.Clock
	// MetricsProvider receives the workqueues' metrics (nil = none).
	MetricsProvider workqueue.MetricsProvider
}

// Controller runs every Job's pods to completion and keeps its status.
// Kubernetes: pkg/controller/job/job_controller.go, Controller.
type Controller struct {
	client   *client.Client
	jobs     *client.Resource[*api.Job]
	pods     *client.Resource[*api.Pod]
	recorder record.EventRecorder
	log      *slog.Logger
	clock    workqueue.Clock
	opts     Options

	jobLister listers.Lister[*api.Job]
	podLister listers.Lister[*api.Pod]
	synced    []func() bool

	// expectations holds back a Job whose own pod creations and deletions
	// the cache has not caught up with (as the ReplicaSet controller does).
	expectations *replicaset.ControllerExpectations
	// finalizerExpectations: pods whose finalizer removal is in flight.
	finalizerExpectations *uidTrackingExpectations
	// podBackoffStore: the failures behind each Job's pod-failure back-off.
	podBackoffStore *backoffStore

	// queue holds Job keys; orphanQueue holds keys of pods that carry the
	// tracking finalizer but no longer belong to a running Job.
	queue       workqueue.TypedRateLimitingInterface[string]
	orphanQueue workqueue.TypedRateLimitingInterface[string]

	// syncHandler is syncJob; a field so tests can observe syncs.
	syncHandler func(ctx context.Context, key string) error
}

// NewController wires the Job and Pod informers to the queues. The
// informers come from a shared factory that the caller starts.
func NewController(c *client.Client, jobInformer informers.TypedInformer[*api.Job], podInformer informers.TypedInformer[*api.Pod], recorder record.EventRecorder, opts Options) *Controller {
	if opts.PodFailureBackOff <= 0 {
		opts.PodFailureBackOff = DefaultPodFailureBackOff
	}
	if opts.MaxPodFailureBackOff <= 0 {
		opts.MaxPodFailureBackOff = MaxPodFailureBackOff
	}
	if opts.Clock == nil {
		opts.Clock = workqueue.RealClock{}
	}
	log := slog.Default().With("component", ControllerName)
	newQueue := func(name string) workqueue.TypedRateLimitingInterface[string] {
		return workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.NewTypedItemExponentialFailureRateLimiter[string](defaultJobAPIBackOff, maxJobAPIBackOff),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: name, MetricsProvider: opts.MetricsProvider, Clock: opts.Clock})
	}
	jm := &Controller{
		client:                c,
		jobs:                  client.For[*api.Job](c),
		pods:                  client.For[*api.Pod](c),
		recorder:              recorder,
		log:                   log,
		clock:                 opts.Clock,
		opts:                  opts,
		jobLister:             jobInformer.Lister(),
		podLister:             podInformer.Lister(),
		expectations:          replicaset.NewControllerExpectations(opts.Clock, log),
		finalizerExpectations: newUIDTrackingExpectations(),
		podBackoffStore:       newBackoffStore(),
		queue:                 newQueue("job"),
		orphanQueue:           newQueue("job_orphan_pod"),
	}
	jm.syncHandler = jm.syncJob

	jobReg, err := jobInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { jm.addJob(obj) },
		UpdateFunc: jm.updateJob,
		DeleteFunc: jm.deleteJob,
	})
	jm.addSynced(jobReg, err, "jobs")
	podReg, err := podInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { jm.addPod(obj) },
		UpdateFunc: jm.updatePod,
		DeleteFunc: func(obj any) { jm.deletePod(obj, true) },
	})
	jm.addSynced(podReg, err, "pods")
	return jm
}

func (jm *Controller) addSynced(reg interface{ HasSynced() bool }, err error, what string) {
	if err != nil {
		jm.log.Error("cannot watch "+what, "err", err)
		jm.synced = append(jm.synced, func() bool { return false })
		return
	}
	jm.synced = append(jm.synced, reg.HasSynced)
}

// syncOrphanPod takes the tracking finalizer off a pod that no running Job
// of ours will count: it has no controller, or its Job is gone or finished.
// Kubernetes: job_controller.go, syncOrphanPod.
func (jm *Controller) syncOrphanPod(ctx context.Context, key string) error {
	ns, name, err := api.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	pod, err := jm.podLister.Namespace(ns).Get(name)
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if ref := api.GetControllerOf(&pod.ObjectMeta); ref != nil {
		if ref.Kind != "Job" || ref.APIVersion != "batch/v1" {
			return nil // someone else's pod: not our finalizer to judge
		}
		job := jm.resolveControllerRef(pod.Namespace, ref)
		if job != nil && managedByExternalController(job) {
			return nil
		}
		if job != nil && !IsJobFinished(job) {
			return nil // adopted meanwhile
		}
	}
	if patch := removeTrackingFinalizerPatch(pod); patch != nil {
		_, err := jm.pods.Namespace(ns).Patch(ctx, name, client.StrategicMergePatchType, patch, client.PatchOptions{})
		if err != nil && !api.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// enqueueSyncJobImmediately is for Job events: creation, deletion, spec
// changes.
func (jm *Controller) enqueueSyncJobImmediately(j *api.Job) { jm.enqueueAfter(j, 0) }

// enqueueSyncJobBatched is for pod events and status updates.
func (jm *Controller) enqueueSyncJobBatched(j *api.Job) { jm.enqueueAfter(j, syncJobBatchPeriod) }

// enqueueSyncJobWithDelay comes back when a pod-failure back-off ends, but
// never sooner than the batch period.
func (jm *Controller) enqueueSyncJobWithDelay(j *api.Job, d time.Duration) {
	jm.enqueueAfter(j, max(d, syncJobBatchPeriod))
}

func (jm *Controller) enqueueAfter(j *api.Job, d time.Duration) {
	key, _ := api.MetaNamespaceKeyFunc(j)
	jm.queue.AddAfter(key, d)
}

func (jm *Controller) enqueueOrphanPod(p *api.Pod) {
	key, _ := api.MetaNamespaceKeyFunc(p)
	jm.orphanQueue.Add(key)
}

// managedByExternalController reports whether spec.managedBy hands the Job
// to another controller (Kubernetes: managedByExternalController).
func managedByExternalController(j *api.Job) bool {
	return j.Spec.ManagedBy != nil && *j.Spec.ManagedBy != api.JobControllerName
}

// Run is the worker loop every controller shares (package worker): wait
// for the caches, run workers until ctx ends, then stop them. Beside the
// Job workers, one worker drains the orphan-pod queue with the same loop.
func (jm *Controller) Run(ctx context.Context, workers int) {
	jm.loop().Run(ctx, workers)
}

func (jm *Controller) loop() *worker.Loop {
	orphans := &worker.Loop{Log: jm.log.With("queue", "orphan pods"), Queue: jm.orphanQueue, Sync: jm.syncOrphanPod}
	return &worker.Loop{Log: jm.log, Queue: jm.queue, Synced: jm.synced,
		Sync:         func(ctx context.Context, key string) error { return jm.syncHandler(ctx, key) },
		AlsoRun:      []func(context.Context){orphans.RunWorker},
		AlsoShutDown: []interface{ ShutDown() }{jm.orphanQueue}}
}
