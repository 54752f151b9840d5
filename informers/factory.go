package informers

import (
	"context"
	"fmt"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/cache"
	"kubeloop/client"
	"kubeloop/informer"
	"kubeloop/listers"
	"kubeloop/reflector"
)

// ListerWatcherFunc makes the ListerWatcher of one resource, optionally
// narrowed (for example the kubelet's informer on spec.nodeName=<node>).
type ListerWatcherFunc func(info *api.ResourceInfo) reflector.ListerWatcher

// SharedInformerFactory hands out one informer per resource per process, so
// every controller in a controller manager shares one watch and one cache.
type SharedInformerFactory struct {
	newLW ListerWatcherFunc
	// opts: every informer's (ResyncPeriod is client-go's defaultResync).
	opts informer.Options

	mu        sync.Mutex
	informers map[*api.ResourceInfo]informer.SharedIndexInformer
	started   map[*api.ResourceInfo]bool
	wg        sync.WaitGroup
}

// NewClientInformerFactory is the usual factory: informers list and watch
// through the kubeloop client, over HTTP, like every other component; tweak,
// if not nil, edits every LIST and WATCH (the kubelet's spec.nodeName=<node>).
func NewClientInformerFactory(c *client.Client, resync time.Duration, tweak func(*api.ListOptions)) *SharedInformerFactory {
	return NewClientInformerFactoryWithOptions(c, informer.Options{ResyncPeriod: resync}, tweak)
}

// NewClientInformerFactoryWithOptions is NewClientInformerFactory with
// every informer option (the components pass Transform: TrimManagedFields).
func NewClientInformerFactoryWithOptions(c *client.Client, opts informer.Options, tweak func(*api.ListOptions)) *SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(func(info *api.ResourceInfo) reflector.ListerWatcher {
		lw := client.NewListWatch(c, info, "")
		lw.TweakListOptions = tweak
		return lw
	}, opts)
}

// NewSharedInformerFactory makes a factory whose informers list and watch
// through newLW and resync every resync (0 = never).
func NewSharedInformerFactory(newLW ListerWatcherFunc, resync time.Duration) *SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(newLW, informer.Options{ResyncPeriod: resync})
}

// NewSharedInformerFactoryWithOptions is NewSharedInformerFactory with every option.
func NewSharedInformerFactoryWithOptions(newLW ListerWatcherFunc, opts informer.Options) *SharedInformerFactory {
	return &SharedInformerFactory{
		newLW: newLW, opts: opts,
		informers: map[*api.ResourceInfo]informer.SharedIndexInformer{},
		started:   map[*api.ResourceInfo]bool{},
	}
}

// InformerFor returns the informer of a resource, making it on first use.
func (f *SharedInformerFactory) InformerFor(info *api.ResourceInfo) informer.SharedIndexInformer {
	f.mu.Lock()
	defer f.mu.Unlock()
	if inf, ok := f.informers[info]; ok {
		return inf
	}
	// Every informer of the factory has the owner index (controllers find
	// their dependents with it) besides the indexers the options ask for.
	opts := f.opts
	opts.Indexers = cache.Indexers{OwnerUIDIndex: OwnerUIDIndexFunc}
	for name, fn := range f.opts.Indexers {
		opts.Indexers[name] = fn
	}
	inf := informer.NewSharedIndexInformer(info.Resource, f.newLW(info), opts)
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
	infs := map[string]informer.SharedIndexInformer{}
	for info, inf := range f.informers {
		if f.started[info] {
			infs[info.Resource] = inf
		}
	}
	f.mu.Unlock()
	out := map[string]bool{}
	for name, inf := range infs {
		out[name] = informer.WaitForCacheSync(ctx, inf.HasSynced)
	}
	return out
}

// Shutdown waits for every informer to stop; cancel the Start context first.
func (f *SharedInformerFactory) Shutdown() { f.wg.Wait() }

// OwnerUIDIndex names the index, on every informer of a factory, of objects
// by the UIDs of their owners: "the pods of this ReplicaSet" and "the
// dependents of this UID" are one lookup.
const OwnerUIDIndex = "ownerUID"

// OwnerUIDIndexFunc is the OwnerUIDIndex function.
func OwnerUIDIndexFunc(obj any) ([]string, error) {
	o, ok := obj.(api.Object)
	if !ok {
		return nil, fmt.Errorf("object has no meta: %T", obj)
	}
	refs := o.GetObjectMeta().OwnerReferences
	uids := make([]string, 0, len(refs))
	for _, r := range refs {
		uids = append(uids, r.UID)
	}
	return uids, nil
}

// TypedInformer is an informer with a typed lister, for kinds known at compile time:
// informers.For[*api.Pod](factory).Lister().Namespace("ns").List(selector).
type TypedInformer[T api.Object] struct {
	informer.SharedIndexInformer
}

// For returns the shared informer of T's resource from the factory.
func For[T api.Object](f *SharedInformerFactory) TypedInformer[T] {
	info, ok := api.ForType[T](api.Builtin())
	if !ok {
		panic("informers.For: type is not registered in api.Builtin()")
	}
	return TypedInformer[T]{f.InformerFor(info)}
}

// Lister reads T objects from the informer's cache.
func (t TypedInformer[T]) Lister() listers.Lister[T] { return listers.NewLister[T](t.GetIndexer()) }
