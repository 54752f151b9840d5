package scheduler

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/scheduler/framework"
	"kubeloop/scheduler/framework/plugins"
	"kubeloop/workqueue"
)

// ComponentName names the scheduler in logs and as the events' source.
const ComponentName = "default-scheduler"

// Options tune a Scheduler; the zero value is Kubernetes' defaults.
type Options struct {
	// SchedulerName: the scheduler handles pods whose spec.schedulerName is
	// this, or empty when this is "default-scheduler" (the default).
	SchedulerName string
	// PodInitialBackoff and PodMaxBackoff bound the retry backoff of a pod
	// that failed (defaults 1 s and 10 s).
	PodInitialBackoff time.Duration
	PodMaxBackoff     time.Duration
	// Rand breaks ties between equally scored nodes. It is used only by the
	// scheduling loop, one goroutine; nil means a randomly seeded source.
	Rand *rand.Rand
	// MetricsProvider receives the queue depths and the scheduling attempt
	// durations (nil = none).
	MetricsProvider workqueue.MetricsProvider
	// Clock drives the backoffs (nil = wall clock).
	Clock workqueue.Clock
	// Plugins replaces the registry (nil = plugins.Default()).
	Plugins []framework.PluginEntry
	// PercentageOfNodesToScore is the share of a big cluster's nodes a
	// cycle looks for among those that fit before it stops filtering and
	// scores them (kube-scheduler's percentageOfNodesToScore): 0 is
	// Kubernetes' adaptive default, 100 every node. Clusters under 100
	// nodes are always checked in full.
	PercentageOfNodesToScore int32
	// SharedObjects, when set, lets the scheduler's pod cache share each
	// pod version with the other components of the process
	// (informers/shared_objects.go; cluster/full sets it).
	SharedObjects *informers.SharedObjects
}

// Scheduler assigns pending pods to nodes, one pod per scheduling cycle,
// and binds them asynchronously. Kubernetes: pkg/scheduler/scheduler.go,
// Scheduler.
type Scheduler struct {
	client        *client.Client
	recorder      record.EventRecorder
	log           *slog.Logger
	schedulerName string
	clock         workqueue.Clock
	rand          *rand.Rand

	// cache is what the informers saw plus the pods assumed by this
	// scheduler; snapshot is the cache frozen for the current cycle and
	// belongs to the scheduling loop alone.
	cache    *Cache
	snapshot *Snapshot
	queue    *SchedulingQueue
	fwk      *framework.Framework

	podLister listers.Lister[*api.Pod]
	synced    []func() bool

	attemptDuration workqueue.HistogramMetric

	// bind writes a binding; a field so a test can race it.
	bind func(ctx context.Context, b *api.Binding) error
	// inFlight counts the binding and status goroutines Run waits for.
	inFlight sync.WaitGroup
	// bindSlots caps the bindings under way (see maxConcurrentBinds).
	bindSlots chan struct{}
	// percentageOfNodesToScore is Options'; nextStartNodeIndex is where
	// the next cycle starts filtering (feasible_nodes.go). The scheduling
	// loop alone uses them.
	percentageOfNodesToScore int32
	nextStartNodeIndex       int
}

// maxConcurrentBinds bounds the binding requests in flight. The scheduling
// loop never waits for it (each binding has its own goroutine, as in
// Kubernetes); without a bound, a burst of a thousand pods opens a
// thousand connections to the apiserver at once, more than its idle pool
// keeps, and the dialling costs more than it overlaps. Kubernetes relies
// on the client's QPS limit instead.
const maxConcurrentBinds = 64

// New wires the pod and node informers of factory to the scheduler's cache
// and queue. The caller starts the factory (after New, so the informers
// exist) and then calls Run.
func New(c *client.Client, factory *informers.SharedInformerFactory, recorder record.EventRecorder, opts Options) (*Scheduler, error) {
	if opts.SchedulerName == "" {
		opts.SchedulerName = api.DefaultSchedulerName
	}
	if opts.PodInitialBackoff <= 0 {
		opts.PodInitialBackoff = DefaultPodInitialBackoff
	}
	if opts.PodMaxBackoff <= 0 {
		opts.PodMaxBackoff = DefaultPodMaxBackoff
	}
	if opts.PercentageOfNodesToScore < 0 || opts.PercentageOfNodesToScore > 100 {
		return nil, fmt.Errorf("scheduler: PercentageOfNodesToScore %d is not between 0 and 100", opts.PercentageOfNodesToScore)
	}
	if opts.PodMaxBackoff < opts.PodInitialBackoff {
		return nil, fmt.Errorf("scheduler: PodMaxBackoff %v is below PodInitialBackoff %v", opts.PodMaxBackoff, opts.PodInitialBackoff)
	}
	if opts.Rand == nil {
		opts.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	if opts.Clock == nil {
		opts.Clock = workqueue.RealClock{}
	}
	if opts.Plugins == nil {
		opts.Plugins = plugins.Default()
	}
	fwk, err := framework.NewFramework(opts.Plugins)
	if err != nil {
		return nil, fmt.Errorf("scheduler: %w", err)
	}
	var attempt workqueue.HistogramMetric = noopHistogram{}
	if opts.MetricsProvider != nil {
		attempt = opts.MetricsProvider.NewWorkDurationMetric("scheduler_attempt")
	}
	podInformer := informers.For[*api.Pod](factory)
	nodeInformer := informers.For[*api.Node](factory)
	s := &Scheduler{
		client:          c,
		recorder:        recorder,
		log:             slog.Default().With("component", ComponentName),
		schedulerName:   opts.SchedulerName,
		clock:           opts.Clock,
		rand:            opts.Rand,
		cache:           newCache(),
		snapshot:        NewEmptySnapshot(),
		queue:           newSchedulingQueue(opts.Clock, opts.PodInitialBackoff, opts.PodMaxBackoff, opts.MetricsProvider),
		fwk:             fwk,
		podLister:       podInformer.Lister(),
		attemptDuration: attempt,
		bindSlots:       make(chan struct{}, maxConcurrentBinds),

		percentageOfNodesToScore: opts.PercentageOfNodesToScore,
	}
	s.bind = func(ctx context.Context, b *api.Binding) error {
		return client.For[*api.Pod](s.client).Namespace(b.Namespace).Bind(ctx, b, client.CreateOptions{})
	}
	synced, err := s.addAllEventHandlers(podInformer, nodeInformer)
	if err != nil {
		return nil, fmt.Errorf("scheduler: %w", err)
	}
	s.synced = synced
	return s, nil
}

// Run waits for the caches, then schedules one pod per cycle until ctx
// ends; it returns after the bindings under way have finished.
func (s *Scheduler) Run(ctx context.Context) {
	s.log.Info("starting scheduler", "schedulerName", s.schedulerName)
	defer s.log.Info("shutting down scheduler")
	if !informer.WaitForCacheSync(ctx, s.synced...) {
		return
	}
	go s.queue.Run(ctx.Done())
	go func() {
		<-ctx.Done()
		s.queue.Close()
	}()
	for s.scheduleOne(ctx) {
	}
	s.inFlight.Wait()
}

type noopHistogram struct{}

func (noopHistogram) Observe(float64) {}
