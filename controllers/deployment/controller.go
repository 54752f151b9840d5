package deployment

import (
	"context"
	"log/slog"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/controllers/worker"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/workqueue"
)

// ControllerName names the controller in logs, events and metrics.
const ControllerName = "deployment-controller"

// maxRetries is how many times a failing Deployment is retried with
// back-off before it is dropped from the queue (until its next event).
// Kubernetes: deployment_controller.go, maxRetries.
const maxRetries = 15

// Options tune a Controller; the zero value is Kubernetes' defaults.
type Options struct {
	// MetricsProvider receives the workqueue's metrics (nil = none).
	MetricsProvider workqueue.MetricsProvider
	// Clock drives availability (minReadySeconds) and the progress
	// deadline (nil = wall clock).
	Clock workqueue.Clock
}

// Controller rolls Deployments out through ReplicaSets.
// Kubernetes: pkg/controller/deployment/deployment_controller.go,
// DeploymentController.
type Controller struct {
	client   *client.Client
	recorder record.EventRecorder
	log      *slog.Logger
	clock    workqueue.Clock

	dLister   listers.Lister[*api.Deployment]
	rsLister  listers.Lister[*api.ReplicaSet]
	podLister listers.Lister[*api.Pod]
	synced    []func() bool

	// queue holds Deployment keys ("namespace/name"); a key is never
	// processed by two workers at once.
	queue workqueue.TypedRateLimitingInterface[string]

	// syncHandler is syncDeployment; a field so tests can observe syncs.
	syncHandler func(ctx context.Context, key string) error
}

// NewController wires the informers' handlers to the workqueue. The
// informers come from a shared factory the caller starts.
func NewController(c *client.Client, dInformer informers.TypedInformer[*api.Deployment], rsInformer informers.TypedInformer[*api.ReplicaSet], podInformer informers.TypedInformer[*api.Pod], recorder record.EventRecorder, opts Options) *Controller {
	if opts.Clock == nil {
		opts.Clock = workqueue.RealClock{}
	}
	dc := &Controller{
		client:    c,
		recorder:  recorder,
		log:       slog.Default().With("component", ControllerName),
		clock:     opts.Clock,
		dLister:   dInformer.Lister(),
		rsLister:  rsInformer.Lister(),
		podLister: podInformer.Lister(),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "deployment", MetricsProvider: opts.MetricsProvider},
		),
	}
	dc.syncHandler = dc.syncDeployment

	dc.register(dInformer.SharedIndexInformer, "deployments", informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { dc.addDeployment(obj) },
		UpdateFunc: dc.updateDeployment,
		DeleteFunc: dc.deleteDeployment,
	})
	dc.register(rsInformer.SharedIndexInformer, "replicasets", informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { dc.addReplicaSet(obj) },
		UpdateFunc: dc.updateReplicaSet,
		DeleteFunc: dc.deleteReplicaSet,
	})
	// Only deletions: a Recreate rollout waits for the last old pod to go.
	// Every other pod change reaches us as a ReplicaSet status update.
	dc.register(podInformer.SharedIndexInformer, "pods", informer.ResourceEventHandlerFuncs{
		DeleteFunc: dc.deletePod,
	})
	return dc
}

// register adds h to inf. Workers wait until the handlers themselves, not
// only the caches, have seen the initial lists.
func (dc *Controller) register(inf informer.SharedIndexInformer, what string, h informer.ResourceEventHandlerFuncs) {
	reg, err := inf.AddEventHandler(h)
	if err != nil {
		dc.log.Error("cannot watch "+what, "err", err)
		dc.synced = append(dc.synced, func() bool { return false })
		return
	}
	dc.synced = append(dc.synced, reg.HasSynced)
}

// handleErr forgets a key that synced (or whose namespace is going away:
// every write there fails, and the namespace controller removes the lot),
// and retries one that failed, with back-off, up to maxRetries times.
func (dc *Controller) handleErr(key string, err error) {
	if err == nil || hasStatusCause(err, api.CauseTypeNamespaceTerminating) {
		dc.queue.Forget(key)
		return
	}
	if dc.queue.NumRequeues(key) < maxRetries {
		dc.log.Info("error syncing deployment, requeueing", "key", key, "err", err)
		dc.queue.AddRateLimited(key)
		return
	}
	dc.log.Warn("dropping deployment out of the queue", "key", key, "err", err)
	dc.queue.Forget(key)
}

func (dc *Controller) enqueue(d *api.Deployment) {
	key, _ := api.MetaNamespaceKeyFunc(d)
	dc.queue.Add(key)
}

func (dc *Controller) enqueueRateLimited(d *api.Deployment) {
	key, _ := api.MetaNamespaceKeyFunc(d)
	dc.queue.AddRateLimited(key)
}

func (dc *Controller) enqueueAfter(d *api.Deployment, after time.Duration) {
	key, _ := api.MetaNamespaceKeyFunc(d)
	dc.queue.AddAfter(key, after)
}

// Run is the worker loop every controller shares (package worker): wait
// for the caches, run workers until ctx ends, then stop them.
func (dc *Controller) Run(ctx context.Context, workers int) {
	dc.loop().Run(ctx, workers)
}

func (dc *Controller) loop() *worker.Loop {
	return &worker.Loop{Log: dc.log, Queue: dc.queue, Synced: dc.synced,
		Sync:      func(ctx context.Context, key string) error { return dc.syncHandler(ctx, key) },
		HandleErr: func(_ context.Context, key string, err error) { dc.handleErr(key, err) }}
}
