package replicaset

import (
	"context"
	"log/slog"
	"time"

	"kubeloop/api"
	"kubeloop/cache"
	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/controllers/worker"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
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

	rsLister  listers.Lister[*api.ReplicaSet]
	rsIndexer cache.Indexer
	podLister listers.Lister[*api.Pod]
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
func NewController(c *client.Client, rsInformer informers.TypedInformer[*api.ReplicaSet], podInformer informers.TypedInformer[*api.Pod], recorder record.EventRecorder, opts Options) *Controller {
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

func (rsc *Controller) enqueue(rs *api.ReplicaSet) {
	key, _ := api.MetaNamespaceKeyFunc(rs)
	rsc.queue.Add(key)
}

func (rsc *Controller) enqueueAfter(rs *api.ReplicaSet, d time.Duration) {
	key, _ := api.MetaNamespaceKeyFunc(rs)
	rsc.queue.AddAfter(key, d)
}

// Run is the worker loop every controller shares (package worker): wait
// for the caches, run workers until ctx ends, then stop them.
func (rsc *Controller) Run(ctx context.Context, workers int) {
	rsc.loop().Run(ctx, workers)
}

func (rsc *Controller) loop() *worker.Loop {
	return &worker.Loop{Log: rsc.log, Queue: rsc.queue, Synced: rsc.synced,
		Sync: func(ctx context.Context, key string) error { return rsc.syncHandler(ctx, key) }}
}
