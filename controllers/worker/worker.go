package worker

import (
	"context"
	"log/slog"
	"sync"

	"kubeloop/informer"
	"kubeloop/workqueue"
)

// Loop is one controller's worker loop. Fill it in NewController; Run is
// the controller's Run.
type Loop struct {
	Log    *slog.Logger
	Queue  workqueue.TypedRateLimitingInterface[string]
	Synced []func() bool
	// Sync is the controller's syncHandler: the level-triggered reconcile
	// of one key. Controllers pass a closure that calls their own
	// syncHandler field, so a test that swaps that field is obeyed.
	Sync func(ctx context.Context, key string) error
	// HandleErr decides what happens to a key once Sync returned. Nil is
	// the usual rule: Forget on success, nothing once ctx is done (the
	// queue is shutting down), otherwise log and AddRateLimited.
	HandleErr func(ctx context.Context, key string, err error)
	// AlsoRun are goroutines that run beside the workers (the Job
	// controller's orphan-pod worker, the node lifecycle monitor); each
	// must return once ctx is done or AlsoShutDown has been called.
	AlsoRun []func(ctx context.Context)
	// AlsoShutDown are further queues shut down with Queue.
	AlsoShutDown []interface{ ShutDown() }
}

// Run waits for the caches, starts workers workers and the AlsoRun
// goroutines, and blocks until ctx ends; then it shuts the queues down,
// which ends the workers, and returns once they have.
func (l *Loop) Run(ctx context.Context, workers int) {
	l.Log.Info("starting controller", "workers", workers)
	defer l.Log.Info("shutting down controller")
	var wg sync.WaitGroup
	defer wg.Wait()
	defer l.shutDown()
	if !informer.WaitForCacheSync(ctx, l.Synced...) {
		return
	}
	for range workers {
		wg.Add(1)
		go func() { defer wg.Done(); l.RunWorker(ctx) }()
	}
	for _, f := range l.AlsoRun {
		wg.Add(1)
		go func() { defer wg.Done(); f(ctx) }()
	}
	<-ctx.Done()
}

func (l *Loop) shutDown() {
	l.Queue.ShutDown()
	for _, q := range l.AlsoShutDown {
		q.ShutDown()
	}
}

// RunWorker processes keys until the queue shuts down (Kubernetes'
// worker / runWorker).
func (l *Loop) RunWorker(ctx context.Context) {
	for l.ProcessNextWorkItem(ctx) {
	}
}

// ProcessNextWorkItem takes one key, reconciles it and settles it: Done
// always (so the key can be handed out again), then Forget or
// AddRateLimited through HandleErr. It reports false once the queue has
// shut down.
func (l *Loop) ProcessNextWorkItem(ctx context.Context) bool {
	key, quit := l.Queue.Get()
	if quit {
		return false
	}
	defer l.Queue.Done(key)
	err := l.Sync(ctx, key)
	if l.HandleErr != nil {
		l.HandleErr(ctx, key, err)
		return true
	}
	if err == nil {
		l.Queue.Forget(key)
		return true
	}
	if ctx.Err() != nil {
		// Shutting down: the sync was cut short and the queue is about
		// to stop; nothing to report or retry.
		return true
	}
	l.Log.Error("sync failed, requeueing", "key", key, "err", err)
	l.Queue.AddRateLimited(key)
	return true
}
