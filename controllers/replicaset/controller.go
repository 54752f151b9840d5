package replicaset

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/informer"
	"kubeloop/workqueue"
)

// ControllerName names the controller in logs, events and the workqueue's
// metrics.
const ControllerName = "replicaset-controller"

// DefaultBurstReplicas caps the creations or deletions of one sync
// (Kubernetes: the BurstReplicas constant of replica_set.go).
const DefaultBurstReplicas = 500

// Options tune a Controller; the zero value is Kubernetes' defaults.
type Options struct {
	// BurstReplicas caps the pods created or deleted by one sync (default
	// 500). The rest waits for the next sync, once these are observed.
	BurstReplicas int
	// MetricsProvider receives the workqueue's metrics (nil = none).
	MetricsProvider workqueue.MetricsProvider
	// Clock drives the expectations' timeout and the availability check
	// (nil = wall clock); tests inject a fake one.
	Clock workqueue.Clock
}

// Controller keeps every ReplicaSet's pod count at spec.replicas.
// Kubernetes: pkg/controller/replicaset/replica_set.go, ReplicaSetController.
type Controller struct {
	client        *client.Client
	recorder      record.EventRecorder
	log           *slog.Logger
	clock         workqueue.Clock
	burstReplicas int

	rsLister  informer.Lister[*api.ReplicaSet]
	rsIndexer informer.Indexer
	podLister informer.Lister[*api.Pod]
	synced    []func() bool

	// expectations holds back syncs of a ReplicaSet whose own creates and
	// deletes the cache has not caught up with.
	expectations *ControllerExpectations
	// queue holds ReplicaSet keys ("namespace/name"): a key is never
	// processed by two workers at once.
	queue workqueue.TypedRateLimitingInterface[string]

	// syncHandler is syncReplicaSet; a field so tests can observe syncs.
	syncHandler func(ctx context.Context, key string) error
}

// NewController wires the informers' handlers to the workqueue. The
// informers come from a shared factory that the caller starts.
func NewController(c *client.Client, rsInformer informer.TypedInformer[*api.ReplicaSet], podInformer informer.TypedInformer[*api.Pod], recorder record.EventRecorder, opts Options) *Controller {
	if opts.BurstReplicas <= 0 {
		opts.BurstReplicas = DefaultBurstReplicas
	}
	if opts.Clock == nil {
		opts.Clock = workqueue.RealClock{}
	}
	log := slog.Default().With("component", ControllerName)
	rsc := &Controller{
		client:        c,
		recorder:      recorder,
		log:           log,
		clock:         opts.Clock,
		burstReplicas: opts.BurstReplicas,
		rsLister:      rsInformer.Lister(),
		rsIndexer:     rsInformer.GetIndexer(),
		podLister:     podInformer.Lister(),
		expectations:  NewControllerExpectations(opts.Clock, log),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "replicaset", MetricsProvider: opts.MetricsProvider},
		),
	}
	rsc.syncHandler = rsc.syncReplicaSet

	// Workers wait until the handlers, not only the caches, have seen the
	// initial lists: an initial pod delivered to addPod after a sync has
	// set expectations would count as one of that sync's creations, and
	// the next sync would create one pod too many.
	rsReg, err := rsInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { rsc.addRS(obj) },
		UpdateFunc: rsc.updateRS,
		DeleteFunc: rsc.deleteRS,
	})
	if err != nil {
		log.Error("cannot watch replicasets", "err", err)
		rsc.synced = append(rsc.synced, func() bool { return false })
	} else {
		rsc.synced = append(rsc.synced, rsReg.HasSynced)
	}
	podReg, err := podInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { rsc.addPod(obj) },
		UpdateFunc: rsc.updatePod,
		DeleteFunc: rsc.deletePod,
	})
	if err != nil {
		log.Error("cannot watch pods", "err", err)
		rsc.synced = append(rsc.synced, func() bool { return false })
	} else {
		rsc.synced = append(rsc.synced, podReg.HasSynced)
	}
	return rsc
}

// Run waits for the caches, starts workers and blocks until ctx ends; then
// it shuts the queue down, which stops the workers, and returns once they
// have finished their current sync.
func (rsc *Controller) Run(ctx context.Context, workers int) {
	defer rsc.queue.ShutDown()
	rsc.log.Info("starting controller", "workers", workers)
	defer rsc.log.Info("shutting down controller")
	if !informer.WaitForCacheSync(ctx, rsc.synced...) {
		return
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() { defer wg.Done(); rsc.runWorker(ctx) }()
	}
	<-ctx.Done()
	rsc.queue.ShutDown()
	wg.Wait()
}

func (rsc *Controller) runWorker(ctx context.Context) {
	for rsc.processNextWorkItem(ctx) {
	}
}

// processNextWorkItem runs one sync. On success the key's backoff is reset;
// on error the key comes back after a growing delay.
func (rsc *Controller) processNextWorkItem(ctx context.Context) bool {
	key, quit := rsc.queue.Get()
	if quit {
		return false
	}
	defer rsc.queue.Done(key)
	if err := rsc.syncHandler(ctx, key); err != nil {
		rsc.log.Error("sync failed, requeueing", "key", key, "err", err)
		rsc.queue.AddRateLimited(key)
		return true
	}
	rsc.queue.Forget(key)
	return true
}

func (rsc *Controller) enqueue(rs *api.ReplicaSet) {
	key, _ := api.MetaNamespaceKeyFunc(rs)
	rsc.queue.Add(key)
}

func (rsc *Controller) enqueueAfter(rs *api.ReplicaSet, d time.Duration) {
	key, _ := api.MetaNamespaceKeyFunc(rs)
	rsc.queue.AddAfter(key, d)
}
