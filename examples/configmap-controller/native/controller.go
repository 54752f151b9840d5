// Package native is the tutorial's controller on kubeloop's own packages
// instead of client-go's: kubeloop/informer for the SharedInformerFactory
// and its cache, kubeloop/workqueue for the rate-limited queue,
// kubeloop/client for the writes. Read it beside package clientgo: line for
// line it is the same program, which is the point — kubeloop's packages
// are rebuilt with client-go's names and behaviour, so what you learn
// stepping through these carries over.
//
// Where the two differ, it is kubeloop's API that differs: an informer
// factory takes a function that makes a ListerWatcher per resource (here,
// one namespace's), handlers' AddFunc is told whether the object came with
// the initial list, and Run takes a context rather than a stop channel.
//
// Kubernetes counterpart: staging/src/k8s.io/sample-controller/controller.go
// at v1.37.2; kubeloop's production form is controllers/labeler.
package native

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/reflector"
	"kubeloop/workqueue"
)

// The label every ConfigMap must carry.
const (
	LabelKey   = "managed-by"
	LabelValue = "configmap-controller"
)

// Controller keeps the label on the ConfigMaps of one namespace.
type Controller struct {
	client   *client.Client
	factory  *informers.SharedInformerFactory
	informer informers.TypedInformer[*api.ConfigMap]
	queue    workqueue.TypedRateLimitingInterface[string]
	log      *slog.Logger
}

// New wires the informer to the queue; resync as in package clientgo.
func New(c *client.Client, namespace string, resync time.Duration) (*Controller, error) {
	// informers.WithNamespace: every list and watch is of one namespace.
	factory := informers.NewSharedInformerFactory(func(info *api.ResourceInfo) reflector.ListerWatcher {
		return client.NewListWatch(c, info, namespace)
	}, resync)
	ctrl := &Controller{
		client:   c,
		factory:  factory,
		informer: informers.For[*api.ConfigMap](factory),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "configmap-controller"},
		),
		log: slog.Default().With("component", "configmap-controller"),
	}
	_, err := ctrl.informer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { ctrl.enqueue(obj) },
		UpdateFunc: func(_, newObj any) { ctrl.enqueue(newObj) },
	})
	if err != nil {
		return nil, err
	}
	return ctrl, nil
}

func (c *Controller) enqueue(obj any) {
	key, err := api.MetaNamespaceKeyFunc(obj)
	if err != nil {
		c.log.Error("key", "type", fmt.Sprintf("%T", obj), "err", err)
		return
	}
	c.queue.Add(key)
}

// Run starts the informer, waits for its cache and runs workers until ctx
// ends.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer c.queue.ShutDown()
	c.factory.Start(ctx)
	defer c.factory.Shutdown()
	if !informer.WaitForCacheSync(ctx, c.informer.HasSynced) {
		return fmt.Errorf("the ConfigMap cache did not sync")
	}
	c.log.Info("cache synced", "workers", workers)
	for range workers {
		go func() {
			for c.processNextWorkItem(ctx) {
			}
		}()
	}
	<-ctx.Done()
	return nil
}

// processNextWorkItem: Get, reconcile, Done; Forget or AddRateLimited.
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.reconcile(ctx, key); err != nil {
		c.log.Error("reconcile failed", "key", key, "err", err)
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

// reconcile makes one ConfigMap carry the label: read the cache, return if
// it is right, deep-copy, write through the API.
func (c *Controller) reconcile(ctx context.Context, key string) error {
	namespace, _, err := api.SplitMetaNamespaceKey(key)
	if err != nil {
		return fmt.Errorf("invalid key %q: %w", key, err)
	}
	obj, exists, err := c.informer.GetIndexer().GetByKey(key)
	if err != nil {
		return fmt.Errorf("reading %s from the cache: %w", key, err)
	}
	if !exists {
		return nil
	}
	cm := obj.(*api.ConfigMap)
	if cm.Labels[LabelKey] == LabelValue {
		return nil
	}
	updated := cm.DeepCopy()
	if updated.Labels == nil {
		updated.Labels = map[string]string{}
	}
	updated.Labels[LabelKey] = LabelValue
	_, err = client.For[*api.ConfigMap](c.client).Namespace(namespace).Update(ctx, updated, client.UpdateOptions{})
	return err
}
