package labeler

import (
	"context"
	"fmt"
	"log/slog"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/controllers/worker"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/workqueue"
)

// The label every ConfigMap must carry.
const (
	LabelKey   = "managed-by"
	LabelValue = "configmap-controller"
)

// controllerName names the workqueue (its metrics) and the log lines.
const controllerName = "labeler"

// Options configure the labeler.
type Options struct {
	// Namespaces limits the controller to these namespaces; empty means all.
	// The shared informer still watches every namespace (other controllers
	// use it too), so the filter is applied in the event handlers.
	Namespaces []string
	// MetricsProvider feeds the workqueue's metrics; nil records none.
	MetricsProvider workqueue.MetricsProvider
}

// Controller keeps the managed-by label on ConfigMaps.
type Controller struct {
	client   *client.Client
	cmLister listers.Lister[*api.ConfigMap]
	// cmSynced is true once the informer has synced and our handler has seen
	// every object of the initial list.
	cmSynced func() bool
	queue    workqueue.TypedRateLimitingInterface[string]
	// namespaces is the set of namespaces we manage; nil means all.
	namespaces map[string]bool
	log        *slog.Logger

	// syncHandler is a field, as in Kubernetes' controllers, so tests can
	// observe each reconcile.
	syncHandler func(ctx context.Context, key string) error
}

// NewController wires the ConfigMap informer to the workqueue. Start the
// informer (through its factory) and then call Run.
func NewController(c *client.Client, cmInformer informers.TypedInformer[*api.ConfigMap], opts Options) *Controller {
	ctrl := &Controller{
		client:   c,
		cmLister: cmInformer.Lister(),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: controllerName, MetricsProvider: opts.MetricsProvider},
		),
		log: slog.Default().With("component", controllerName),
	}
	if len(opts.Namespaces) > 0 {
		ctrl.namespaces = map[string]bool{}
		for _, ns := range opts.Namespaces {
			ctrl.namespaces[ns] = true
		}
	}
	ctrl.syncHandler = ctrl.syncConfigMap

	// Add and Update do the same thing: the reconcile does not care why it
	// was called. There is no DeleteFunc: a deleted ConfigMap needs no label.
	reg, err := cmInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { ctrl.enqueue(obj) },
		UpdateFunc: func(_, newObj any) { ctrl.enqueue(newObj) },
	})
	if err != nil {
		// Only a stopped informer refuses handlers; Run would then wait
		// forever, so fall back to the informer's own sync state.
		ctrl.log.Error("add event handler", "err", err)
		ctrl.cmSynced = cmInformer.HasSynced
	} else {
		ctrl.cmSynced = reg.HasSynced
	}
	return ctrl
}

// enqueue adds the key of a ConfigMap in one of our namespaces.
func (c *Controller) enqueue(obj any) {
	cm, ok := obj.(*api.ConfigMap)
	if !ok {
		return
	}
	if c.namespaces != nil && !c.namespaces[cm.Namespace] {
		return
	}
	key, err := api.MetaNamespaceKeyFunc(cm)
	if err != nil {
		c.log.Error("key", "err", err)
		return
	}
	c.log.Debug("enqueue", "key", key)
	c.queue.Add(key)
}

// syncConfigMap is the reconcile: read the cached ConfigMap, and if its
// label is not right, write a corrected copy back through the API.
func (c *Controller) syncConfigMap(ctx context.Context, key string) error {
	namespace, name, err := api.SplitMetaNamespaceKey(key)
	if err != nil {
		// A malformed key never gets better: drop it.
		c.log.Error("invalid key", "key", key, "err", err)
		return nil
	}
	cm, err := c.cmLister.Namespace(namespace).Get(name)
	if api.IsNotFound(err) {
		return nil // deleted since it was queued
	}
	if err != nil {
		return err
	}
	if cm.Labels[LabelKey] == LabelValue {
		return nil // the idempotent second pass ends here
	}
	// The cached object is shared with every other reader of the cache.
	cm = cm.DeepCopy()
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels[LabelKey] = LabelValue
	// cm keeps the cached resourceVersion, so the update is a
	// compare-and-swap: if the cache was stale it fails with Conflict.
	_, err = client.For[*api.ConfigMap](c.client).Namespace(namespace).Update(ctx, cm, client.UpdateOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("label configmap %s: %w", key, err)
	}
	c.log.Info("labelled", "key", key)
	return nil
}

// Run is the worker loop every controller shares (package worker), the
// tutorial's processNextWorkItem: Get, reconcile, Done, then Forget or
// AddRateLimited.
func (c *Controller) Run(ctx context.Context, workers int) {
	c.loop().Run(ctx, workers)
}

func (c *Controller) loop() *worker.Loop {
	return &worker.Loop{Log: c.log, Queue: c.queue, Synced: []func() bool{c.cmSynced},
		Sync: func(ctx context.Context, key string) error { return c.syncHandler(ctx, key) }, HandleErr: c.handleErr}
}

// handleErr settles a key after its reconcile: Forget on success,
// AddRateLimited on failure.
func (c *Controller) handleErr(ctx context.Context, key string, err error) {
	if err == nil {
		c.queue.Forget(key)
		return
	}
	switch {
	case ctx.Err() != nil:
		// Shutting down: the queue is about to stop; nothing to report.
	case api.IsConflict(err):
		// Someone wrote the ConfigMap after our cache saw it; the informer
		// will bring the newer version, and the retry reconciles that.
		c.log.Info("conflict, retrying", "key", key)
	default:
		c.log.Error("reconcile failed", "key", key, "err", err)
	}
	c.queue.AddRateLimited(key)
}
