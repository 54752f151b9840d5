// Package clientgo is the tutorial's controller, on client-go: it watches
// the ConfigMaps of one namespace and keeps the label
// managed-by=configmap-controller on every one of them, putting it back
// when someone removes it.
//
// It is the tutorial's four building blocks, each a client-go type: a
// namespaced SharedInformerFactory (the informer and its cache), event
// handlers that only enqueue "namespace/name" keys, a rate-limited
// workqueue (DefaultTypedControllerRateLimiter: 5 ms doubling to 1000 s per
// key, 10/s with a burst of 100 overall), and a level-triggered reconcile
// that reads the cache, deep-copies before changing anything and writes
// through the API. Package native beside it is the same controller on
// kubeloop's own packages; kubeloop's controllers/labeler is its production
// form.
//
// Kubernetes counterpart: staging/src/k8s.io/sample-controller/controller.go
// at v1.37.2 (NewController, Run, runWorker, processNextWorkItem, syncHandler).
package clientgo

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// The label every ConfigMap must carry.
const (
	LabelKey   = "managed-by"
	LabelValue = "configmap-controller"
)

// Controller keeps the label on the ConfigMaps of one namespace.
type Controller struct {
	clientset kubernetes.Interface
	factory   informers.SharedInformerFactory
	informer  cache.SharedIndexInformer
	queue     workqueue.TypedRateLimitingInterface[string]
}

// New wires the informer to the queue. resync is how often the informer
// hands every ConfigMap to the handlers again although nothing changed: a
// safety net for a reconcile that was missed (the tutorial uses 30 s).
func New(clientset kubernetes.Interface, namespace string, resync time.Duration) (*Controller, error) {
	factory := informers.NewSharedInformerFactoryWithOptions(clientset, resync, informers.WithNamespace(namespace))
	c := &Controller{
		clientset: clientset,
		factory:   factory,
		informer:  factory.Core().V1().ConfigMaps().Informer(),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "configmap-controller"},
		),
	}
	// Add and Update do the same: the reconcile does not ask why it was
	// called. No DeleteFunc: a deleted ConfigMap needs no label.
	_, err := c.informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		UpdateFunc: func(_, newObj any) { c.enqueue(newObj) },
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Controller) enqueue(obj any) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		klog.Errorf("key of %T: %v", obj, err)
		return
	}
	c.queue.Add(key)
}

// Run starts the informer, waits for its cache and runs workers until ctx
// ends.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer c.queue.ShutDown()
	c.factory.Start(ctx.Done())
	defer c.factory.Shutdown()
	if !cache.WaitForCacheSync(ctx.Done(), c.informer.HasSynced) {
		return fmt.Errorf("the ConfigMap cache did not sync")
	}
	klog.Infof("configmap-controller: cache synced, %d workers", workers)
	for range workers {
		go func() {
			for c.processNextWorkItem(ctx) {
			}
		}()
	}
	<-ctx.Done()
	return nil
}

// processNextWorkItem is the loop every controller has: Get blocks for a
// key; Done lets the key be handed out again; Forget resets its backoff on
// success; AddRateLimited brings it back later on failure.
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.reconcile(ctx, key); err != nil {
		klog.Errorf("reconcile %s: %v", key, err)
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

// reconcile makes one ConfigMap carry the label.
func (c *Controller) reconcile(ctx context.Context, key string) error {
	namespace, _, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return fmt.Errorf("invalid key %q: %w", key, err)
	}
	// The cache, not the API: a map lookup instead of a round trip.
	obj, exists, err := c.informer.GetStore().GetByKey(key)
	if err != nil {
		return fmt.Errorf("reading %s from the cache: %w", key, err)
	}
	if !exists {
		return nil // deleted since it was queued
	}
	cm := obj.(*corev1.ConfigMap)
	if cm.Labels[LabelKey] == LabelValue {
		return nil // already right: doing nothing is what makes it idempotent
	}
	// The cached object is shared with every reader of the cache.
	updated := cm.DeepCopy()
	if updated.Labels == nil {
		updated.Labels = map[string]string{}
	}
	updated.Labels[LabelKey] = LabelValue
	// The write goes to the API; the informer brings it back, and that
	// reconcile finds nothing to do. A conflict (someone wrote after our
	// cache saw it) is an error: the retry reads the newer version.
	_, err = c.clientset.CoreV1().ConfigMaps(namespace).Update(ctx, updated, metav1.UpdateOptions{})
	return err
}
