package greeter

import (
	"context"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/workqueue"
)

// Controller publishes every Greeting as a ConfigMap.
type Controller struct {
	client    *client.Client
	greetings *client.DynamicResource
	lister    listers.Lister[*api.Unstructured]
	synced    func() bool
	queue     workqueue.TypedRateLimitingInterface[string]
}

// NewController watches the Greetings of info (from client.DiscoverResource).
func NewController(c *client.Client, info *api.ResourceInfo, factory *informers.SharedInformerFactory) *Controller {
	inf := factory.InformerFor(info)
	ctrl := &Controller{client: c, greetings: c.Dynamic(info), lister: listers.NewLister[*api.Unstructured](inf.GetIndexer()),
		synced: inf.HasSynced, queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())}
	enqueue := func(obj any) {
		if key, err := api.MetaNamespaceKeyFunc(obj.(api.Object)); err == nil {
			ctrl.queue.Add(key)
		}
	}
	_, _ = inf.AddEventHandler(informer.ResourceEventHandlerFuncs{AddFunc: func(o any, _ bool) { enqueue(o) }, UpdateFunc: func(_, o any) { enqueue(o) }})
	return ctrl
}

// Run reconciles with one worker until ctx ends.
func (c *Controller) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	if !informer.WaitForCacheSync(ctx, c.synced) {
		return
	}
	go func() { <-ctx.Done(); c.queue.ShutDown() }()
	for c.processNextWorkItem(ctx) {
	}
}

func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

// sync makes the Greeting's ConfigMap say its message, then says so in
// the Greeting's status. Level-triggered: it only reads the world.
func (c *Controller) sync(ctx context.Context, key string) error {
	ns, name, _ := api.SplitMetaNamespaceKey(key)
	g, err := c.lister.Namespace(ns).Get(name)
	if err != nil {
		return nil // deleted: the garbage collector removes its ConfigMap
	}
	message, _ := api.NestedField(g.Content, "spec", "message")
	text, _ := message.(string)
	want := &api.ConfigMap{Data: map[string]string{"message": text}}
	want.Name, want.Namespace = name, ns
	want.OwnerReferences = []api.OwnerReference{{APIVersion: g.APIVersion, Kind: g.Kind, Name: g.Name, UID: g.UID, Controller: ptr(true)}}
	cms := client.For[*api.ConfigMap](c.client).Namespace(ns)
	cm, err := cms.Get(ctx, name, client.GetOptions{})
	switch {
	case api.IsNotFound(err):
		_, err = cms.Create(ctx, want, client.CreateOptions{})
	case err == nil && cm.Data["message"] != want.Data["message"]:
		cm.Data = want.Data
		_, err = cms.Update(ctx, cm, client.UpdateOptions{})
	}
	if err != nil {
		return err
	}
	if gen, _ := api.NestedField(g.Content, "status", "observedGeneration"); gen == g.Generation {
		return nil
	}
	g = g.DeepCopy()
	api.SetNestedField(g.Content, map[string]any{"configMap": name, "observedGeneration": g.Generation}, "status")
	_, err = c.greetings.Namespace(ns).UpdateStatus(ctx, g, client.UpdateOptions{})
	return err
}

func ptr[T any](v T) *T { return &v }
