package namespace

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"golang.org/x/time/rate"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/controllers/worker"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/workqueue"
)

// ControllerName names the controller in logs and the workqueue's metrics.
const ControllerName = "namespace-controller"

// Kubernetes' defaults.
const (
	// DefaultDeletionGracePeriod is how long the controller waits after it
	// sees a namespace change before it acts: other apiservers' admission
	// must have seen the namespace Terminating, and the last creates in it
	// must have landed, or the cleanup would miss them. Kubernetes:
	// namespaceDeletionGracePeriod.
	DefaultDeletionGracePeriod = 5 * time.Second
	// DefaultResyncPeriod is kube-controller-manager's
	// --namespace-sync-period: every namespace is looked at again this
	// often even if nothing changed.
	DefaultResyncPeriod = 5 * time.Minute
)

// Options tune a Controller; the zero value is Kubernetes' defaults.
type Options struct {
	// DeletionGracePeriod delays each sync after an event (default 5 s);
	// tests shorten it.
	DeletionGracePeriod time.Duration
	// ResyncPeriod of the namespace handler (default 5 min).
	ResyncPeriod time.Duration
	// DiscoverResources lists what to delete; nil means the client's
	// ServerPreferredNamespacedResources.
	DiscoverResources func(ctx context.Context) ([]*client.APIResourceList, error)
	// MetricsProvider receives the workqueue's metrics (nil = none).
	MetricsProvider workqueue.MetricsProvider
}

// Controller empties terminating namespaces and then removes their
// "kubernetes" finalizer. Kubernetes: pkg/controller/namespace/
// namespace_controller.go, NamespaceController.
type Controller struct {
	log         *slog.Logger
	gracePeriod time.Duration

	nsLister listers.Lister[*api.Namespace]
	nsSynced func() bool
	// queue holds namespace names; a name is never synced by two workers
	// at once.
	queue   workqueue.TypedRateLimitingInterface[string]
	deleter *namespacedResourcesDeleter

	// syncHandler is syncNamespaceFromKey; a field so tests can observe
	// syncs.
	syncHandler func(ctx context.Context, key string) error
}

// NewController wires the namespace informer to the workqueue.
func NewController(c *client.Client, nsInformer informers.TypedInformer[*api.Namespace], opts Options) *Controller {
	if opts.DeletionGracePeriod == 0 {
		opts.DeletionGracePeriod = DefaultDeletionGracePeriod
	}
	if opts.ResyncPeriod == 0 {
		opts.ResyncPeriod = DefaultResyncPeriod
	}
	discover := opts.DiscoverResources
	if discover == nil {
		discover = c.ServerPreferredNamespacedResources
	}
	log := slog.Default().With("component", ControllerName)
	ctrl := &Controller{
		log:         log,
		gracePeriod: opts.DeletionGracePeriod,
		nsLister:    nsInformer.Lister(),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(nsControllerRateLimiter(),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "namespace", MetricsProvider: opts.MetricsProvider}),
		deleter: newNamespacedResourcesDeleter(c, discover, api.FinalizerKubernetes, log),
	}
	ctrl.syncHandler = ctrl.syncNamespaceFromKey
	reg, err := nsInformer.AddEventHandlerWithResyncPeriod(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { ctrl.enqueueNamespace(obj) },
		UpdateFunc: func(_, newObj any) { ctrl.enqueueNamespace(newObj) },
	}, opts.ResyncPeriod)
	if err != nil {
		log.Error("add event handler", "err", err)
		ctrl.nsSynced = nsInformer.HasSynced
	} else {
		ctrl.nsSynced = reg.HasSynced
	}
	return ctrl
}

// nsControllerRateLimiter retries a failed namespace at least every
// minute: the per-item backoff stops at 60 s instead of the usual 1000 s,
// so cleanup is never long behind. Kubernetes: nsControllerRateLimiter.
func nsControllerRateLimiter() workqueue.TypedRateLimiter[string] {
	return workqueue.NewTypedMaxOfRateLimiter(
		workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 60*time.Second),
		&workqueue.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Limit(10), 100)},
	)
}

// enqueueNamespace queues a namespace that is being deleted, after the
// grace period; live namespaces are none of this controller's business.
func (c *Controller) enqueueNamespace(obj any) {
	ns, ok := obj.(*api.Namespace)
	if !ok || ns.DeletionTimestamp == nil {
		return
	}
	c.queue.AddAfter(ns.Name, c.gracePeriod)
}

// syncNamespaceFromKey deletes the namespace's content if it is being
// deleted; the deleter reads the namespace live, since the cache may lag.
func (c *Controller) syncNamespaceFromKey(ctx context.Context, key string) error {
	start := time.Now()
	defer func() { c.log.Debug("synced", "namespace", key, "duration", time.Since(start)) }()
	if _, err := c.nsLister.Get(key); api.IsNotFound(err) {
		c.log.Info("namespace has been deleted", "namespace", key)
		return nil
	} else if err != nil {
		return err
	}
	return c.deleter.Delete(ctx, key)
}

// Run is the worker loop every controller shares (package worker): wait
// for the cache, run workers until ctx ends, then stop them.
func (c *Controller) Run(ctx context.Context, workers int) {
	c.loop().Run(ctx, workers)
}

func (c *Controller) loop() *worker.Loop {
	return &worker.Loop{Log: c.log, Queue: c.queue, Synced: []func() bool{c.nsSynced},
		Sync: func(ctx context.Context, key string) error { return c.syncHandler(ctx, key) }, HandleErr: c.handleErr}
}

// handleErr settles one namespace's key. Content that is still going away
// is not a failure: the namespace comes back after half the time its
// slowest pods may take, instead of after a backoff.
func (c *Controller) handleErr(ctx context.Context, key string, err error) {
	var remaining *ResourcesRemainingError
	switch {
	case err == nil:
		c.queue.Forget(key)
	case ctx.Err() != nil:
	case errors.As(err, &remaining):
		wait := time.Duration(remaining.Estimate/2+1) * time.Second
		c.log.Info("content remaining", "namespace", key, "retryIn", wait)
		c.queue.AddAfter(key, wait)
	default:
		c.log.Error("deletion failed", "namespace", key, "err", err)
		c.queue.AddRateLimited(key)
	}
}
