package finalizer

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

// The names the controller works with.
const (
	// CopyToLabel on a ConfigMap asks for a copy of it in the namespace
	// the label names.
	CopyToLabel = "kubeloop.dev/copy-to"
	// CopyOfLabel marks a copy with the UID of its source.
	CopyOfLabel = "kubeloop.dev/copy-of"
	// FinalizerName is the controller's finalizer: while it is on a
	// source, the source cannot disappear before its copies are gone.
	FinalizerName = "kubeloop.dev/copies"
)

// ErrNotImplemented is what the stub returns.
var ErrNotImplemented = errors.New("not implemented yet")

// Controller copies every ConfigMap labelled CopyToLabel into the
// namespace the label names, and deletes the copies when the source is
// deleted or loses the label. Everything but the reconcile is given.
type Controller struct {
	client      *client.Client
	log         *slog.Logger
	cmLister    listers.Lister[*api.ConfigMap]
	synced      func() bool
	queue       workqueue.TypedRateLimitingInterface[string]
	syncHandler func(ctx context.Context, key string) error
}

// NewController wires the ConfigMap informer to the queue: a source's
// events enqueue it, and a copy's events enqueue nothing (the copies are
// found by a live LIST when needed).
func NewController(c *client.Client, cmInformer informers.TypedInformer[*api.ConfigMap]) (*Controller, error) {
	ctrl := &Controller{
		client:   c,
		log:      slog.Default().With("component", "configmap-copier"),
		cmLister: cmInformer.Lister(),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "configmap-copier"}),
	}
	ctrl.syncHandler = ctrl.syncConfigMap
	reg, err := cmInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { ctrl.enqueue(obj) },
		UpdateFunc: func(_, obj any) { ctrl.enqueue(obj) },
	})
	if err != nil {
		return nil, err
	}
	ctrl.synced = reg.HasSynced
	return ctrl, nil
}

// enqueue queues the sources: ConfigMaps that ask for a copy, and those
// that still carry our finalizer (being deleted, or no longer asking).
func (c *Controller) enqueue(obj any) {
	cm, ok := obj.(*api.ConfigMap)
	if !ok {
		return
	}
	if cm.Labels[CopyToLabel] == "" && !hasFinalizer(&cm.ObjectMeta, FinalizerName) {
		return
	}
	if key, err := api.MetaNamespaceKeyFunc(cm); err == nil {
		c.queue.Add(key)
	}
}

// Run waits for the cache, runs workers until ctx ends, then shuts the
// queue down and waits for them.
func (c *Controller) Run(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	defer wg.Wait()
	defer c.queue.ShutDown()
	if !informer.WaitForCacheSync(ctx, c.synced) {
		return
	}
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

func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.syncHandler(ctx, key); err != nil {
		if ctx.Err() == nil {
			c.log.Info("sync failed, will retry", "key", key, "err", err)
		}
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

// hasFinalizer reports whether m lists finalizer f.
func hasFinalizer(m *api.ObjectMeta, f string) bool {
	for _, x := range m.Finalizers {
		if x == f {
			return true
		}
	}
	return false
}
