package informer

import (
	"context"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/reflector"
)

// ListerWatcherFunc makes the ListerWatcher of one resource, optionally
// narrowed (for example the kubelet's informer on spec.nodeName=<node>).
type ListerWatcherFunc func(info *api.ResourceInfo) reflector.ListerWatcher

// SharedInformerFactory hands out one informer per resource per process, so
// every controller in a controller manager shares one watch and one cache.
type SharedInformerFactory struct {
	newLW ListerWatcherFunc
	// opts is what every informer is made with (ResyncPeriod is
	// client-go's defaultResync).
	opts Options

	mu        sync.Mutex
	informers map[*api.ResourceInfo]SharedIndexInformer
	started   map[*api.ResourceInfo]bool
	wg        sync.WaitGroup
}

// NewSharedInformerFactory makes a factory whose informers list and watch
// through newLW and resync every resync (0 = never).
func NewSharedInformerFactory(newLW ListerWatcherFunc, resync time.Duration) *SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(newLW, Options{ResyncPeriod: resync})
}

// NewSharedInformerFactoryWithOptions is NewSharedInformerFactory with every option.
func NewSharedInformerFactoryWithOptions(newLW ListerWatcherFunc, opts Options) *SharedInformerFactory {
	return &SharedInformerFactory{
		newLW: newLW, opts: opts,
		informers: map[*api.ResourceInfo]SharedIndexInformer{},
		started:   map[*api.ResourceInfo]bool{},
	}
}

// InformerFor returns the informer of a resource, making it on first use.
func (f *SharedInformerFactory) InformerFor(info *api.ResourceInfo) SharedIndexInformer {
	f.mu.Lock()
	defer f.mu.Unlock()
	if inf, ok := f.informers[info]; ok {
		return inf
	}
	// Every informer of the factory has the owner index (controllers find
	// their dependents with it) besides the indexers the options ask for.
	opts := f.opts
	opts.Indexers = Indexers{OwnerUIDIndex: OwnerUIDIndexFunc}
	for name, fn := range f.opts.Indexers {
		opts.Indexers[name] = fn
	}
	inf := NewSharedIndexInformer(info.Resource, f.newLW(info), opts)
	f.informers[info] = inf
	return inf
}

// Start runs every informer asked for so far that is not yet running.
// Informers asked for later need another Start.
func (f *SharedInformerFactory) Start(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for info, inf := range f.informers {
		if f.started[info] {
			continue
		}
		f.started[info] = true
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			inf.Run(ctx)
		}()
	}
}

// WaitForCacheSync waits until every started informer has synced or ctx ends,
// and reports which resources synced.
func (f *SharedInformerFactory) WaitForCacheSync(ctx context.Context) map[string]bool {
	f.mu.Lock()
	infs := map[string]SharedIndexInformer{}
	for info, inf := range f.informers {
		if f.started[info] {
			infs[info.Resource] = inf
		}
	}
	f.mu.Unlock()
	out := map[string]bool{}
	for name, inf := range infs {
		out[name] = WaitForCacheSync(ctx, inf.HasSynced)
	}
	return out
}

// Shutdown waits for every informer to stop; cancel the Start context first.
func (f *SharedInformerFactory) Shutdown() { f.wg.Wait() }

// WaitForCacheSync polls the given HasSynced functions until all are true or
// ctx ends; it reports whether they all synced.
func WaitForCacheSync(ctx context.Context, synced ...func() bool) bool {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for {
		all := true
		for _, s := range synced {
			if !s() {
				all = false
				break
			}
		}
		if all {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
}

// TypedInformer is an informer with a typed lister, for kinds known at compile time:
// informer.For[*api.Pod](factory).Lister().Namespace("ns").List(selector).
type TypedInformer[T api.Object] struct {
	SharedIndexInformer
}

// For returns the shared informer of T's resource from the factory.
func For[T api.Object](f *SharedInformerFactory) TypedInformer[T] {
	info, ok := api.ForType[T](api.Builtin())
	if !ok {
		panic("informer.For: type is not registered in api.Builtin()")
	}
	return TypedInformer[T]{f.InformerFor(info)}
}

// Lister reads T objects from the informer's cache.
func (t TypedInformer[T]) Lister() Lister[T] { return Lister[T]{indexer: t.GetIndexer()} }
