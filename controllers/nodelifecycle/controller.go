package nodelifecycle

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/controllers/worker"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/workqueue"
)

// ControllerName names the controller in logs, events and queue metrics.
const ControllerName = "node-lifecycle-controller"

// Options tune a Controller; the zero value is Kubernetes' defaults.
type Options struct {
	// NodeMonitorPeriod is how often every node's health is checked (5 s).
	NodeMonitorPeriod time.Duration
	// NodeMonitorGracePeriod is how long a node may go without a
	// heartbeat before it is marked Unknown and tainted unreachable (40 s).
	NodeMonitorGracePeriod time.Duration
	// PodEvictionTimeout is how long pods stay on an unreachable node
	// before they are deleted (5 min, the tolerationSeconds Kubernetes'
	// DefaultTolerationSeconds admission gives every pod). A pod's own
	// toleration of the unreachable taint overrides it.
	PodEvictionTimeout time.Duration
	// MetricsProvider receives the workqueue's metrics (nil = none).
	MetricsProvider workqueue.MetricsProvider
	// Clock is the controller's own clock (nil = wall clock): heartbeats
	// are judged by when this controller saw them change, never by the
	// kubelet's timestamps, so clock skew does not matter.
	Clock workqueue.Clock
}

// Controller watches node heartbeats, marks silent nodes Unknown, taints
// them unreachable, and evicts their pods. Kubernetes:
// pkg/controller/nodelifecycle/node_lifecycle_controller.go, Controller,
// with the NoExecute taint manager (pkg/controller/tainteviction) folded in.
type Controller struct {
	client   *client.Client
	nodes    *client.Resource[*api.Node]
	pods     *client.Resource[*api.Pod]
	recorder record.EventRecorder
	log      *slog.Logger
	clock    workqueue.Clock
	opts     Options

	nodeLister  listers.Lister[*api.Node]
	leaseLister listers.Lister[*api.Lease]
	podLister   listers.Lister[*api.Pod]
	synced      []func() bool

	// health is what this controller has observed of each node's
	// heartbeats, by node name (Kubernetes: nodeHealthMap).
	mu     sync.Mutex
	health map[string]*nodeHealth

	// queue holds node names; a node is synced by one worker at a time.
	queue workqueue.TypedRateLimitingInterface[string]
}

// NewController wires the informers to the queue. The informers come from
// a shared factory that the caller starts.
func NewController(c *client.Client, nodeInformer informers.TypedInformer[*api.Node], leaseInformer informers.TypedInformer[*api.Lease], podInformer informers.TypedInformer[*api.Pod], recorder record.EventRecorder, opts Options) *Controller {
	if opts.NodeMonitorPeriod <= 0 {
		opts.NodeMonitorPeriod = 5 * time.Second
	}
	if opts.NodeMonitorGracePeriod <= 0 {
		opts.NodeMonitorGracePeriod = 40 * time.Second
	}
	if opts.PodEvictionTimeout <= 0 {
		opts.PodEvictionTimeout = 5 * time.Minute
	}
	if opts.Clock == nil {
		opts.Clock = workqueue.RealClock{}
	}
	nc := &Controller{
		client:      c,
		nodes:       client.For[*api.Node](c),
		pods:        client.For[*api.Pod](c),
		recorder:    recorder,
		log:         slog.Default().With("component", ControllerName),
		clock:       opts.Clock,
		opts:        opts,
		nodeLister:  nodeInformer.Lister(),
		leaseLister: leaseInformer.Lister(),
		podLister:   podInformer.Lister(),
		synced:      []func() bool{nodeInformer.HasSynced, leaseInformer.HasSynced, podInformer.HasSynced},
		health:      map[string]*nodeHealth{},
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "nodelifecycle", MetricsProvider: opts.MetricsProvider},
		),
	}
	enqueueNode := func(obj any) {
		if n, ok := obj.(*api.Node); ok {
			nc.queue.Add(n.Name)
		}
	}
	if _, err := nodeInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { enqueueNode(obj) },
		UpdateFunc: func(_, obj any) { enqueueNode(obj) },
		DeleteFunc: nc.deleteNode,
	}); err != nil {
		nc.log.Error("cannot watch nodes", "err", err)
	}
	// A renewed lease is the usual heartbeat: look at its node at once
	// rather than at the next monitor tick.
	if _, err := leaseInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { nc.enqueueLease(obj) },
		UpdateFunc: func(_, obj any) { nc.enqueueLease(obj) },
	}); err != nil {
		nc.log.Error("cannot watch leases", "err", err)
	}
	return nc
}

// runMonitor enqueues every node each NodeMonitorPeriod: a node that went
// silent causes no event, so only a clock can notice it.
// Kubernetes: the monitorNodeHealth loop.
func (nc *Controller) runMonitor(ctx context.Context) {
	t := time.NewTicker(nc.opts.NodeMonitorPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for _, n := range nc.nodeLister.List(api.Everything()) {
			nc.queue.Add(n.Name)
		}
	}
}

func (nc *Controller) enqueueLease(obj any) {
	l, ok := obj.(*api.Lease)
	if ok && l.Namespace == api.NamespaceNodeLease {
		nc.queue.Add(l.Name)
	}
}

func (nc *Controller) deleteNode(obj any) {
	var name string
	switch o := obj.(type) {
	case *api.Node:
		name = o.Name
	case informer.DeletedFinalStateUnknown:
		_, name, _ = api.SplitMetaNamespaceKey(o.Key)
	}
	if name != "" {
		nc.queue.Add(name)
	}
}

// Run is the worker loop every controller shares (package worker): wait
// for the caches, run workers and the lease monitor until ctx ends, then
// stop them.
func (nc *Controller) Run(ctx context.Context, workers int) {
	nc.loop().Run(ctx, workers)
}

func (nc *Controller) loop() *worker.Loop {
	return &worker.Loop{Log: nc.log, Queue: nc.queue, Synced: nc.synced, Sync: nc.syncNode,
		AlsoRun: []func(context.Context){nc.runMonitor}}
}
