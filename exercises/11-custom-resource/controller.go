package website

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

// The Website kind, as website-crd.yaml defines it.
const (
	Group    = "course.kubeloop.dev"
	Version  = "v1"
	Kind     = "Website"
	Resource = "websites"
)

// The Ready condition's reasons, in the style of sample-controller's
// SuccessSynced and ErrResourceExists.
const (
	ConditionReady = "Ready"
	// ReasonPublished: the Website's ConfigMap holds its HTML.
	ReasonPublished = "Published"
	// ReasonConfigMapExists: a ConfigMap of that name exists and is not
	// controlled by the Website; the controller leaves it alone.
	ReasonConfigMapExists = "ConfigMapExists"
)

// HTMLKey is the ConfigMap key that holds the page.
const HTMLKey = "index.html"

// ErrNotImplemented is what the stub returns.
var ErrNotImplemented = errors.New("not implemented yet")

// Controller publishes every Website as a ConfigMap it controls and reports
// in the Website's status what it published. Everything but the reconcile
// is given.
type Controller struct {
	client *client.Client
	// websites is the dynamic client of the custom kind: Get, Update and
	// UpdateStatus (PUT .../websites/NAME/status) on *api.Unstructured.
	websites   *client.DynamicResource
	log        *slog.Logger
	clock      workqueue.Clock
	siteLister listers.Lister[*api.Unstructured]
	cmLister   listers.Lister[*api.ConfigMap]
	synced     []func() bool
	queue      workqueue.TypedRateLimitingInterface[string]
	// syncHandler is syncWebsite; the grader wraps it.
	syncHandler func(ctx context.Context, key string) error
}

// Options tune a Controller.
type Options struct {
	// Clock stamps the conditions (nil: the wall clock).
	Clock workqueue.Clock
}

// NewController wires the informers of the Websites (info is what
// client.DiscoverResource returned for them) and of the ConfigMaps to the
// queue. Start the factory after it, then call Run.
func NewController(c *client.Client, info *api.ResourceInfo, factory *informers.SharedInformerFactory, opts Options) (*Controller, error) {
	if opts.Clock == nil {
		opts.Clock = workqueue.RealClock{}
	}
	siteInformer := factory.InformerFor(info)
	cmInformer := informers.For[*api.ConfigMap](factory)
	ctrl := &Controller{
		client:     c,
		websites:   c.Dynamic(info),
		log:        slog.Default().With("component", "website"),
		clock:      opts.Clock,
		siteLister: listers.NewLister[*api.Unstructured](siteInformer.GetIndexer()),
		cmLister:   cmInformer.Lister(),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "website"}),
	}
	ctrl.syncHandler = ctrl.syncWebsite
	siteReg, err := siteInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { ctrl.enqueue(obj) },
		UpdateFunc: func(_, obj any) { ctrl.enqueue(obj) },
	})
	if err != nil {
		return nil, err
	}
	cmReg, err := cmInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { ctrl.handleConfigMap(obj) },
		UpdateFunc: func(_, obj any) { ctrl.handleConfigMap(obj) },
		DeleteFunc: ctrl.handleConfigMap,
	})
	if err != nil {
		return nil, err
	}
	ctrl.synced = []func() bool{siteReg.HasSynced, cmReg.HasSynced}
	return ctrl, nil
}

// Run waits for the caches, runs workers until ctx ends, then shuts the
// queue down and waits for them.
func (c *Controller) Run(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	defer wg.Wait()
	defer c.queue.ShutDown()
	if !informer.WaitForCacheSync(ctx, c.synced...) {
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

func (c *Controller) enqueue(obj any) {
	if o, ok := obj.(api.Object); ok {
		if key, err := api.MetaNamespaceKeyFunc(o); err == nil {
			c.queue.Add(key)
		}
	}
}

// handleConfigMap wakes the Website that controls a ConfigMap, so that a
// ConfigMap someone edited or deleted is put right. As sample-controller's
// handleObject, it follows the controller reference only: a ConfigMap the
// Website does not control is not its business.
func (c *Controller) handleConfigMap(obj any) {
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	cm, ok := obj.(*api.ConfigMap)
	if !ok {
		return
	}
	ref := controllerOf(&cm.ObjectMeta)
	if ref == nil || ref.Kind != Kind || ref.APIVersion != Group+"/"+Version {
		return
	}
	site, err := c.siteLister.Namespace(cm.Namespace).Get(ref.Name)
	if err != nil || site.UID != ref.UID {
		return // gone, or a new Website of the same name: not this ConfigMap's owner
	}
	c.enqueue(site)
}

// configMapName is the name of the ConfigMap that publishes a Website.
func configMapName(site *api.Unstructured) string { return site.Name + "-html" }

// controllerOf returns the owner reference with controller: true, or nil
// (Kubernetes: metav1.GetControllerOf).
func controllerOf(m *api.ObjectMeta) *api.OwnerReference {
	for i := range m.OwnerReferences {
		if r := m.OwnerReferences[i]; r.Controller != nil && *r.Controller {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}

// isControlledBy reports whether site is m's controller: the UID decides,
// not the name (Kubernetes: metav1.IsControlledBy).
func isControlledBy(m *api.ObjectMeta, site *api.Unstructured) bool {
	ref := controllerOf(m)
	return ref != nil && ref.UID == site.UID
}
