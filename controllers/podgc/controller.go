package podgc

import (
	"context"
	"log/slog"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/workqueue"
)

// ControllerName names the controller in logs and the queue's metrics.
const ControllerName = "pod-garbage-collector"

// Kubernetes' defaults.
const (
	// DefaultGCCheckPeriod is how often the collector looks at every pod
	// (Kubernetes: gcCheckPeriod).
	DefaultGCCheckPeriod = 20 * time.Second
	// DefaultQuarantineTime is how long a node that pods name but the
	// cache does not know must stay unknown before it counts as deleted: a
	// node just registered may not have reached the informer yet
	// (Kubernetes: quarantineTime).
	DefaultQuarantineTime = 40 * time.Second
	// DefaultTerminatedPodThreshold is --terminated-pod-gc-threshold.
	DefaultTerminatedPodThreshold = 12500
)

// Options tune a Controller; the zero value is Kubernetes' defaults,
// except TerminatedPodThreshold, whose zero turns that part off as in
// Kubernetes: pass DefaultTerminatedPodThreshold (the controller manager
// does).
type Options struct {
	// TerminatedPodThreshold: with more terminated pods than this, the
	// oldest are deleted; zero or less deletes none.
	TerminatedPodThreshold int
	// GCCheckPeriod (default 20 s) and QuarantineTime (default 40 s);
	// tests shorten them.
	GCCheckPeriod  time.Duration
	QuarantineTime time.Duration
	// MetricsProvider receives the node queue's metrics (nil = none).
	MetricsProvider workqueue.MetricsProvider
}

// Controller deletes the pods nobody else will: terminated pods beyond the
// threshold, pods bound to nodes that are gone, terminating pods that
// never reached a node, and terminating pods on nodes declared out of
// service. Kubernetes: pkg/controller/podgc/gc_controller.go,
// PodGCController.
type Controller struct {
	pods *client.Resource[*api.Pod]
	// nodes reads nodes live, to confirm that a quarantined one is gone.
	nodes *client.Resource[*api.Node]
	log   *slog.Logger

	podLister  listers.Lister[*api.Pod]
	nodeLister listers.Lister[*api.Node]
	synced     []func() bool

	// nodeQueue holds the names of nodes that pods are bound to but the
	// cache does not know, each until its quarantine is over.
	nodeQueue workqueue.TypedDelayingInterface[string]

	terminatedPodThreshold int
	gcCheckPeriod          time.Duration
	quarantineTime         time.Duration
}

// NewController builds the collector over the pod and node informers.
func NewController(c *client.Client, podInformer informers.TypedInformer[*api.Pod], nodeInformer informers.TypedInformer[*api.Node], opts Options) *Controller {
	if opts.GCCheckPeriod <= 0 {
		opts.GCCheckPeriod = DefaultGCCheckPeriod
	}
	if opts.QuarantineTime <= 0 {
		opts.QuarantineTime = DefaultQuarantineTime
	}
	return &Controller{
		pods:       client.For[*api.Pod](c),
		nodes:      client.For[*api.Node](c),
		log:        slog.Default().With("component", ControllerName),
		podLister:  podInformer.Lister(),
		nodeLister: nodeInformer.Lister(),
		synced:     []func() bool{podInformer.HasSynced, nodeInformer.HasSynced},
		nodeQueue: workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[string]{
			Name: "orphaned_pods_nodes", MetricsProvider: opts.MetricsProvider}),
		terminatedPodThreshold: opts.TerminatedPodThreshold,
		gcCheckPeriod:          opts.GCCheckPeriod,
		quarantineTime:         opts.QuarantineTime,
	}
}

// Run waits for the caches and collects every GCCheckPeriod until ctx
// ends. Unlike the other controllers there is no queue of keys and no
// worker pool: the collector is a periodic sweep over the whole cache,
// as in Kubernetes, because what it looks for (counts over all pods,
// nodes that are absent) is not a change of any one object.
func (c *Controller) Run(ctx context.Context, _ int) {
	c.log.Info("starting", "period", c.gcCheckPeriod, "terminatedPodThreshold", c.terminatedPodThreshold)
	defer c.log.Info("stopped")
	defer c.nodeQueue.ShutDown()
	if !informer.WaitForCacheSync(ctx, c.synced...) {
		return
	}
	t := time.NewTicker(c.gcCheckPeriod)
	defer t.Stop()
	for {
		c.gc(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// gc is one sweep. Kubernetes: PodGCController.gc.
func (c *Controller) gc(ctx context.Context) {
	pods := c.podLister.List(api.Everything())
	nodes := c.nodeLister.List(api.Everything())
	if c.terminatedPodThreshold > 0 {
		c.gcTerminated(ctx, pods)
	}
	c.gcTerminating(ctx, pods)
	c.gcOrphaned(ctx, pods, nodes)
	c.gcUnscheduledTerminating(ctx, pods)
}
