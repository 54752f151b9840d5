package serviceaccount

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/controllers/worker"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/workqueue"
)

// ControllerName names the controller in logs and the workqueue's metrics.
const ControllerName = "serviceaccount-controller"

// Options tune a Controller; the zero value is Kubernetes' defaults.
type Options struct {
	// ServiceAccounts are ensured in every active namespace; nil means
	// the one named "default", as in Kubernetes
	// (DefaultServiceAccountsControllerOptions).
	ServiceAccounts []api.ServiceAccount
	// MetricsProvider receives the workqueue's metrics (nil = none).
	MetricsProvider workqueue.MetricsProvider
}

// Controller makes sure every active namespace has its ServiceAccounts
// ("default"), and puts one back when it is deleted. Kubernetes:
// pkg/controller/serviceaccount/serviceaccounts_controller.go,
// ServiceAccountsController.
type Controller struct {
	serviceAccounts *client.Resource[*api.ServiceAccount]
	toEnsure        []api.ServiceAccount
	log             *slog.Logger

	saLister listers.Lister[*api.ServiceAccount]
	nsLister listers.Lister[*api.Namespace]
	synced   []func() bool
	// queue holds namespace names: the reconcile is per namespace.
	queue workqueue.TypedRateLimitingInterface[string]

	// syncHandler is syncNamespace; a field so tests can observe syncs.
	syncHandler func(ctx context.Context, key string) error
}

// NewController wires the ServiceAccount and Namespace informers to the
// queue: a namespace added or updated, or a ServiceAccount deleted, queues
// the namespace.
func NewController(c *client.Client, saInformer informers.TypedInformer[*api.ServiceAccount], nsInformer informers.TypedInformer[*api.Namespace], opts Options) *Controller {
	toEnsure := opts.ServiceAccounts
	if toEnsure == nil {
		toEnsure = []api.ServiceAccount{{ObjectMeta: api.ObjectMeta{Name: "default"}}}
	}
	ctrl := &Controller{
		serviceAccounts: client.For[*api.ServiceAccount](c),
		toEnsure:        toEnsure,
		log:             slog.Default().With("component", ControllerName),
		saLister:        saInformer.Lister(),
		nsLister:        nsInformer.Lister(),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "serviceaccount", MetricsProvider: opts.MetricsProvider}),
	}
	ctrl.syncHandler = ctrl.syncNamespace
	saReg, saErr := saInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{DeleteFunc: ctrl.serviceAccountDeleted})
	nsReg, nsErr := nsInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { ctrl.enqueueNamespace(obj) },
		UpdateFunc: func(_, newObj any) { ctrl.enqueueNamespace(newObj) },
	})
	if err := errors.Join(saErr, nsErr); err != nil {
		ctrl.log.Error("add event handler", "err", err)
		ctrl.synced = []func() bool{saInformer.HasSynced, nsInformer.HasSynced}
	} else {
		ctrl.synced = []func() bool{saReg.HasSynced, nsReg.HasSynced}
	}
	return ctrl
}

// serviceAccountDeleted queues the namespace of a deleted ServiceAccount,
// which may have to be recreated. The object may be a tombstone, when the
// informer missed the delete itself.
func (c *Controller) serviceAccountDeleted(obj any) {
	if t, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	sa, ok := obj.(*api.ServiceAccount)
	if !ok {
		c.log.Error("not a ServiceAccount", "object", obj)
		return
	}
	c.queue.Add(sa.Namespace)
}

func (c *Controller) enqueueNamespace(obj any) {
	if ns, ok := obj.(*api.Namespace); ok {
		c.queue.Add(ns.Name)
	}
}

// syncNamespace is the reconcile: an active namespace gets every
// ServiceAccount it lacks, read from the cache. A namespace that is
// terminating gets nothing (its creates would be refused anyway), and an
// AlreadyExists means someone was first, which is as good. Kubernetes:
// ServiceAccountsController.syncNamespace.
func (c *Controller) syncNamespace(ctx context.Context, key string) error {
	start := time.Now()
	defer func() { c.log.Debug("synced", "namespace", key, "duration", time.Since(start)) }()
	ns, err := c.nsLister.Get(key)
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if ns.Status.Phase != api.NamespaceActive {
		return nil
	}
	var failures []error
	for _, want := range c.toEnsure {
		_, err := c.saLister.Namespace(ns.Name).Get(want.Name)
		if err == nil {
			continue
		}
		if !api.IsNotFound(err) {
			return err
		}
		sa := want.DeepCopy()
		sa.Namespace = ns.Name
		_, err = c.serviceAccounts.Namespace(ns.Name).Create(ctx, sa, client.CreateOptions{})
		switch {
		case err == nil:
			c.log.Info("created", "serviceaccount", ns.Name+"/"+sa.Name)
		case api.IsAlreadyExists(err), api.HasStatusCause(err, api.CauseTypeNamespaceTerminating):
		default:
			failures = append(failures, err)
		}
	}
	return errors.Join(failures...)
}

// Run is the worker loop every controller shares (package worker): wait
// for the caches, run workers until ctx ends, then stop them.
func (c *Controller) Run(ctx context.Context, workers int) {
	c.loop().Run(ctx, workers)
}

func (c *Controller) loop() *worker.Loop {
	return &worker.Loop{Log: c.log, Queue: c.queue, Synced: c.synced,
		Sync: func(ctx context.Context, key string) error { return c.syncHandler(ctx, key) }}
}
