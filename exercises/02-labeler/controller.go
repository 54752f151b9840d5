package labeler

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"kubeloop/api"
	"kubeloop/client"
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

// ErrNotImplemented is what the stub of syncConfigMap returns, so the
// grader can say "not written yet" instead of waiting for a label that
// never comes.
var ErrNotImplemented = errors.New("not implemented yet")

// Controller keeps the managed-by label on ConfigMaps. It is the
// sample-controller skeleton: every field below is given, and only the
// reconcile (syncConfigMap, in sync.go) is yours.
type Controller struct {
	// client writes to the apiserver; the reconcile never reads through it.
	client *client.Client
	// cmLister reads the informer's cache. Objects it returns are shared
	// with every other reader: DeepCopy before changing one.
	cmLister listers.Lister[*api.ConfigMap]
	// cmSynced reports whether the cache holds the initial list.
	cmSynced func() bool
	// queue holds "namespace/name" keys waiting for a reconcile.
	queue workqueue.TypedRateLimitingInterface[string]
	log   *slog.Logger

	// syncHandler is c.syncConfigMap. It is a field, as in Kubernetes'
	// controllers, so the grader can watch every call.
	syncHandler func(ctx context.Context, key string) error
}

// NewController wires the ConfigMap informer to the workqueue. Start the
// informer's factory after it, then call Run.
func NewController(c *client.Client, cmInformer informers.TypedInformer[*api.ConfigMap]) (*Controller, error) {
	ctrl := &Controller{
		client:   c,
		cmLister: cmInformer.Lister(),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "configmap-labeler"},
		),
		log: slog.Default().With("component", "configmap-labeler"),
	}
	ctrl.syncHandler = ctrl.syncConfigMap

	// Add and Update both just enqueue the key: the reconcile looks at the
	// object as it is now and does not care why it was called. No Delete
	// handler: a ConfigMap that is gone needs no label.
	reg, err := cmInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { ctrl.enqueue(obj) },
		UpdateFunc: func(_, newObj any) { ctrl.enqueue(newObj) },
	})
	if err != nil {
		return nil, err
	}
	ctrl.cmSynced = reg.HasSynced
	return ctrl, nil
}

func (c *Controller) enqueue(obj any) {
	key, err := api.MetaNamespaceKeyFunc(obj)
	if err != nil {
		c.log.Error("cannot key object", "err", err)
		return
	}
	c.queue.Add(key)
}

// Run waits for the cache, starts the workers and blocks until ctx ends;
// then it shuts the queue down and waits for the workers.
func (c *Controller) Run(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	defer wg.Wait()
	defer c.queue.ShutDown()
	if !informer.WaitForCacheSync(ctx, c.cmSynced) {
		return
	}
	c.log.Info("started", "workers", workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c.processNextWorkItem(ctx) {
			}
		}()
	}
	<-ctx.Done()
}

// processNextWorkItem runs one reconcile: Forget on success (the key's
// backoff starts over), AddRateLimited on error (retry later), Done always
// (so the key may be handed out again).
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.syncHandler(ctx, key); err != nil {
		if ctx.Err() == nil {
			c.log.Info("reconcile failed, will retry", "key", key, "err", err)
		}
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}
