package garbagecollector

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/workqueue"
)

// Options configure the garbage collector.
type Options struct {
	// MetricsProvider feeds the two workqueues' metrics; nil records none.
	MetricsProvider workqueue.MetricsProvider
	// DiscoveryPeriod is how often discovery is asked for custom resources
	// to watch (default DefaultDiscoveryPeriod; negative: never).
	DiscoveryPeriod time.Duration
}

// absentOwnerCacheSize is Kubernetes' size for the same cache.
const absentOwnerCacheSize = 500

// Controller is the garbage collector: it deletes objects whose owners are
// gone, and carries out foreground and orphan deletions of owners.
type Controller struct {
	client   *client.Client
	registry *api.Registry
	log      *slog.Logger

	dependencyGraphBuilder *graphBuilder
	// attemptToDelete holds nodes whose owners may be gone, and owners being
	// deleted in the foreground; attemptToOrphan holds owners being deleted
	// with the orphan finalizer.
	attemptToDelete workqueue.TypedRateLimitingInterface[*node]
	attemptToOrphan workqueue.TypedRateLimitingInterface[*node]
	// absentOwnerCache spares a GET for owners already found absent.
	absentOwnerCache *referenceCache
	// synced reports, per kind, that the graph holds the initial list.
	synced []func() bool
	// custom watches the kinds discovery finds beyond the registry's
	// (custom_resources.go), every discoveryPeriod.
	custom          customMonitors
	discoveryPeriod time.Duration
}

// errVirtualDeletion says the item turned out not to exist; the graph has
// been told, and the item needs no retry.
var errVirtualDeletion = errors.New("item does not exist; virtual delete processed")

// ignoredResource says which kinds the collector never watches. Kubernetes
// leaves out Events (garbagecollector.DefaultIgnoredResources): they are the
// most frequently written kind, nobody owns them through ownerReferences, and
// they expire on their own; watching them would cost a decode and a graph
// update for every Event the cluster writes.
func ignoredResource(gr api.GroupResource) bool {
	return gr.Resource == "events" && (gr.Group == "" || gr.Group == "events.k8s.io")
}

// NewController registers an informer for every kind of the registry with
// factory and wires them into the dependency graph. The factory must be
// started after this (the controller manager starts it once every
// controller has registered its informers).
func NewController(c *client.Client, factory *informers.SharedInformerFactory, opts Options) *Controller {
	log := slog.Default().With("component", "garbage-collector")
	newQueue := func(name string) workqueue.TypedRateLimitingInterface[*node] {
		return workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[*node](),
			workqueue.TypedRateLimitingQueueConfig[*node]{Name: name, MetricsProvider: opts.MetricsProvider},
		)
	}
	gc := &Controller{
		client:           c,
		registry:         api.Builtin(),
		log:              log,
		attemptToDelete:  newQueue("garbage_collector_attempt_to_delete"),
		attemptToOrphan:  newQueue("garbage_collector_attempt_to_orphan"),
		absentOwnerCache: newReferenceCache(absentOwnerCacheSize),
		custom:           customMonitors{kinds: map[string]*customMonitor{}},
		discoveryPeriod:  opts.DiscoveryPeriod,
	}
	if gc.discoveryPeriod == 0 {
		gc.discoveryPeriod = DefaultDiscoveryPeriod
	}
	gc.dependencyGraphBuilder = &graphBuilder{
		log:             log,
		graph:           newGraph(),
		attemptToDelete: gc.attemptToDelete,
		attemptToOrphan: gc.attemptToOrphan,
	}
	for _, info := range gc.registry.All() {
		if ignoredResource(info.GroupResource()) {
			continue
		}
		inf := factory.InformerFor(info)
		reg, err := inf.AddEventHandler(gc.dependencyGraphBuilder.handlerFor(info))
		if err != nil {
			// Only a stopped informer refuses a handler.
			log.Error("add event handler", "resource", info.Resource, "err", err)
			gc.synced = append(gc.synced, func() bool { return false })
			continue
		}
		gc.synced = append(gc.synced, reg.HasSynced)
	}
	return gc
}

// Run waits until the graph holds every kind's initial list — deciding on
// a partial graph could remove a foreground finalizer while dependents are
// still unseen — then runs workers on both queues until ctx ends.
func (gc *Controller) Run(ctx context.Context, workers int) {
	gc.log.Info("starting", "workers", workers)
	defer gc.log.Info("stopped")
	var wg sync.WaitGroup
	defer wg.Wait()
	defer gc.attemptToOrphan.ShutDown()
	defer gc.attemptToDelete.ShutDown()

	if !informer.WaitForCacheSync(ctx, gc.synced...) {
		return
	}
	gc.log.Info("all resource monitors have synced")
	if gc.discoveryPeriod > 0 {
		wg.Add(1)
		go func() { defer wg.Done(); gc.runDiscovery(ctx, gc.discoveryPeriod) }()
	}
	for range workers {
		wg.Add(2)
		go func() { defer wg.Done(); gc.runAttemptToDeleteWorker(ctx) }()
		go func() { defer wg.Done(); gc.runAttemptToOrphanWorker(ctx) }()
	}
	<-ctx.Done()
}

// HasSynced reports whether the dependency graph holds every kind's initial
// list (tests and health checks).
func (gc *Controller) HasSynced() bool {
	for _, s := range gc.synced {
		if !s() {
			return false
		}
	}
	return true
}

func (gc *Controller) runAttemptToDeleteWorker(ctx context.Context) {
	for gc.processAttemptToDeleteWorker(ctx) {
	}
}

// processAttemptToDeleteWorker is processNextWorkItem for attemptToDelete.
func (gc *Controller) processAttemptToDeleteWorker(ctx context.Context) bool {
	item, quit := gc.attemptToDelete.Get()
	if quit {
		return false
	}
	defer gc.attemptToDelete.Done(item)

	err := gc.attemptToDeleteItem(ctx, item)
	switch {
	case err == nil:
		if _, _, virtual := gc.dependencyGraphBuilder.state(item); virtual {
			// The object exists but no informer has shown it yet. Retry
			// until one does, or until a GET finds it gone, so a virtual
			// node never lingers in the graph.
			gc.attemptToDelete.AddRateLimited(item)
			return true
		}
		gc.attemptToDelete.Forget(item)
	case errors.Is(err, errVirtualDeletion):
		gc.attemptToDelete.Forget(item)
	case ctx.Err() != nil:
		// Shutting down.
	default:
		gc.log.Error("attempt to delete failed", "item", gc.dependencyGraphBuilder.identity(item), "err", err)
		gc.attemptToDelete.AddRateLimited(item)
	}
	return true
}

func (gc *Controller) runAttemptToOrphanWorker(ctx context.Context) {
	for gc.processAttemptToOrphanWorker(ctx) {
	}
}

// processAttemptToOrphanWorker is processNextWorkItem for attemptToOrphan.
func (gc *Controller) processAttemptToOrphanWorker(ctx context.Context) bool {
	owner, quit := gc.attemptToOrphan.Get()
	if quit {
		return false
	}
	defer gc.attemptToOrphan.Done(owner)

	if err := gc.attemptToOrphanWorker(ctx, owner); err != nil {
		if ctx.Err() == nil {
			gc.log.Error("orphaning failed", "owner", gc.dependencyGraphBuilder.identity(owner), "err", err)
			gc.attemptToOrphan.AddRateLimited(owner)
		}
		return true
	}
	gc.attemptToOrphan.Forget(owner)
	return true
}
