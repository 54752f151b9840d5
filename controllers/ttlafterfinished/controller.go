package ttlafterfinished

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/controllers/job"
	"kubeloop/controllers/worker"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/workqueue"
)

// ControllerName names the controller in logs and metrics.
const ControllerName = "ttl-after-finished-controller"

// Options tune a Controller; the zero value is Kubernetes' defaults.
type Options struct {
	// Clock tells the time (nil = wall clock); tests inject a fake one.
	Clock workqueue.Clock
	// MetricsProvider receives the workqueue's metrics (nil = none).
	MetricsProvider workqueue.MetricsProvider
}

// Controller deletes every finished Job ttlSecondsAfterFinished seconds
// after it finished. Kubernetes:
// pkg/controller/ttlafterfinished/ttlafterfinished_controller.go, Controller.
type Controller struct {
	jobs  *client.Resource[*api.Job]
	log   *slog.Logger
	clock workqueue.Clock

	jobLister listers.Lister[*api.Job]
	synced    func() bool

	// queue holds the keys of finished Jobs with a TTL; a Job whose TTL has
	// not run out comes back through AddAfter when it will have.
	queue workqueue.TypedRateLimitingInterface[string]
}

// New wires the Job informer to the queue.
func New(c *client.Client, jobInformer informers.TypedInformer[*api.Job], opts Options) *Controller {
	if opts.Clock == nil {
		opts.Clock = workqueue.RealClock{}
	}
	tc := &Controller{
		jobs:      client.For[*api.Job](c),
		log:       slog.Default().With("component", ControllerName),
		clock:     opts.Clock,
		jobLister: jobInformer.Lister(),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "ttl_jobs_to_delete", MetricsProvider: opts.MetricsProvider, Clock: opts.Clock},
		),
	}
	reg, err := jobInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { tc.addJob(obj) },
		UpdateFunc: func(_, obj any) { tc.addJob(obj) },
	})
	if err != nil {
		tc.log.Error("cannot watch jobs", "err", err)
		tc.synced = func() bool { return false }
	} else {
		tc.synced = reg.HasSynced
	}
	return tc
}

// addJob enqueues a Job that is finished, has a TTL and is not already
// being deleted. Deletions need no handler: there is nothing left to do.
func (tc *Controller) addJob(obj any) {
	j, ok := obj.(*api.Job)
	if !ok || j.DeletionTimestamp != nil || !needsCleanup(j) {
		return
	}
	key, _ := api.MetaNamespaceKeyFunc(j)
	tc.queue.Add(key)
}

// processJob deletes the Job if its TTL has run out, else comes back when
// it will have. The cached Job may be stale (its TTL just raised), so the
// decision is checked again on a fresh read before the delete, which is
// guarded by the Job's UID and cascades in the foreground: the Job stays,
// with the foregroundDeletion finalizer, until the garbage collector has
// deleted its pods.
func (tc *Controller) processJob(ctx context.Context, key string) error {
	ns, name, err := api.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cached, err := tc.jobLister.Namespace(ns).Get(name)
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if expired, err := tc.processTTL(cached); err != nil || !expired {
		return err
	}
	fresh, err := tc.jobs.Namespace(ns).Get(ctx, name, client.GetOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if expired, err := tc.processTTL(fresh); err != nil || !expired {
		return err
	}
	policy := api.DeletePropagationForeground
	uid := fresh.UID
	tc.log.Info("cleaning up job", "key", key, "ttlSecondsAfterFinished", *fresh.Spec.TTLSecondsAfterFinished)
	err = tc.jobs.Namespace(ns).Delete(ctx, name, api.DeleteOptions{
		PropagationPolicy: &policy,
		Preconditions:     &api.Preconditions{UID: &uid},
	})
	if api.IsNotFound(err) || api.IsConflict(err) {
		return nil // gone, or a new Job of the same name: its own events bring it here
	}
	return err
}

// processTTL reports whether the Job's TTL has run out; if it will later,
// it enqueues the key for then.
func (tc *Controller) processTTL(j *api.Job) (bool, error) {
	if j.DeletionTimestamp != nil || !needsCleanup(j) {
		return false, nil
	}
	left, err := timeLeft(j, tc.clock.Now())
	if err != nil {
		return false, err
	}
	if left <= 0 {
		return true, nil
	}
	key, _ := api.MetaNamespaceKeyFunc(j)
	tc.queue.AddAfter(key, left)
	return false, nil
}

// needsCleanup: the Job has a TTL and has finished.
func needsCleanup(j *api.Job) bool {
	return j.Spec.TTLSecondsAfterFinished != nil && job.IsJobFinished(j)
}

// timeLeft is how long until the Job's TTL runs out, from when it finished:
// the lastTransitionTime of its Complete or Failed condition.
func timeLeft(j *api.Job, now time.Time) (time.Duration, error) {
	finishAt, err := jobFinishTime(j)
	if err != nil {
		return 0, err
	}
	expireAt := finishAt.Add(time.Duration(*j.Spec.TTLSecondsAfterFinished) * time.Second)
	return expireAt.Sub(now), nil
}

func jobFinishTime(j *api.Job) (time.Time, error) {
	for _, c := range j.Status.Conditions {
		if (c.Type == api.JobComplete || c.Type == api.JobFailed) && c.Status == api.ConditionTrue {
			if c.LastTransitionTime.IsZero() {
				return time.Time{}, fmt.Errorf("unable to find the time when the Job %s/%s finished", j.Namespace, j.Name)
			}
			return c.LastTransitionTime.Time, nil
		}
	}
	return time.Time{}, fmt.Errorf("unable to find the status of the finished Job %s/%s", j.Namespace, j.Name)
}

// Run is the worker loop every controller shares (package worker): wait
// for the caches, run workers until ctx ends, then stop them.
func (tc *Controller) Run(ctx context.Context, workers int) {
	tc.loop().Run(ctx, workers)
}

func (tc *Controller) loop() *worker.Loop {
	return &worker.Loop{Log: tc.log, Queue: tc.queue, Synced: []func() bool{tc.synced}, Sync: tc.processJob}
}
