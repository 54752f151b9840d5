package status

import (
	"context"
	"log/slog"
	"sync"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/workqueue"
)

// The Available condition's reasons and messages, as Kubernetes' deployment
// controller writes them (pkg/controller/deployment/util).
const (
	MinimumReplicasAvailable   = "MinimumReplicasAvailable"
	MinimumReplicasUnavailable = "MinimumReplicasUnavailable"
	AvailableMessage           = "Deployment has minimum availability."
	UnavailableMessage         = "Deployment does not have minimum availability."
)

// Controller reports, in every Deployment's status, the pods its selector
// matches. It creates nothing: it only observes and writes status, which is
// where reconcilers most often loop. Everything but the reconcile is given.
type Controller struct {
	client      *client.Client
	log         *slog.Logger
	clock       workqueue.Clock
	dLister     listers.Lister[*api.Deployment]
	podLister   listers.Lister[*api.Pod]
	synced      []func() bool
	queue       workqueue.TypedRateLimitingInterface[string]
	syncHandler func(ctx context.Context, key string) error
}

// Options tune a Controller.
type Options struct {
	// Clock stamps the conditions (nil: the wall clock).
	Clock workqueue.Clock
}

// NewController wires the informers to the queue. Start the informers'
// factory after it, then call Run.
func NewController(c *client.Client, dInformer informers.TypedInformer[*api.Deployment], podInformer informers.TypedInformer[*api.Pod], opts Options) (*Controller, error) {
	if opts.Clock == nil {
		opts.Clock = workqueue.RealClock{}
	}
	ctrl := &Controller{
		client:    c,
		log:       slog.Default().With("component", "deployment-status"),
		clock:     opts.Clock,
		dLister:   dInformer.Lister(),
		podLister: podInformer.Lister(),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "deployment-status"}),
	}
	ctrl.syncHandler = ctrl.syncDeployment
	dReg, err := dInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { ctrl.enqueue(obj) },
		UpdateFunc: func(_, obj any) { ctrl.enqueue(obj) },
	})
	if err != nil {
		return nil, err
	}
	podReg, err := podInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { ctrl.enqueueFor(obj) },
		UpdateFunc: func(_, obj any) { ctrl.enqueueFor(obj) },
		DeleteFunc: ctrl.enqueueFor,
	})
	if err != nil {
		return nil, err
	}
	ctrl.synced = []func() bool{dReg.HasSynced, podReg.HasSynced}
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
	if key, err := api.MetaNamespaceKeyFunc(obj); err == nil {
		c.queue.Add(key)
	}
}

// enqueueFor wakes every Deployment whose selector matches the pod.
func (c *Controller) enqueueFor(obj any) {
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	for _, d := range c.dLister.Namespace(pod.Namespace).List(nil) {
		if sel, err := api.LabelSelectorAsSelector(d.Spec.Selector); err == nil && !sel.Empty() && sel.Matches(pod.Labels) {
			c.enqueue(d)
		}
	}
}

// podsOf lists the cached pods the Deployment selects that are not being
// deleted. (Kubernetes counts the pods of the Deployment's ReplicaSets;
// this reporter has no ReplicaSets.)
func (c *Controller) podsOf(d *api.Deployment) ([]*api.Pod, error) {
	sel, err := api.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, err
	}
	var out []*api.Pod
	for _, p := range c.podLister.Namespace(d.Namespace).List(sel) {
		if p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// isPodReady reports whether the pod's Ready condition is True.
func isPodReady(p *api.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

// getCondition returns the condition of type t, or nil.
func getCondition(status api.DeploymentStatus, t api.DeploymentConditionType) *api.DeploymentCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == t {
			return &status.Conditions[i]
		}
	}
	return nil
}
