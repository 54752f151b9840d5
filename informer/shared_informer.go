package informer

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"kubeloop/api"
	"kubeloop/cache"
	"kubeloop/deltafifo"
	"kubeloop/reflector"
	"kubeloop/trace"
)

// SharedIndexInformer keeps an Indexer equal to the server's state of one
// resource and calls every registered handler on each change. "Shared":
// one per resource per process, however many controllers watch it.
type SharedIndexInformer interface {
	AddEventHandler(h ResourceEventHandler) (ResourceEventHandlerRegistration, error)
	AddEventHandlerWithResyncPeriod(h ResourceEventHandler, resync time.Duration) (ResourceEventHandlerRegistration, error)
	GetIndexer() cache.Indexer
	AddIndexers(cache.Indexers) error
	Run(ctx context.Context)
	HasSynced() bool
	LastSyncResourceVersion() string
}

// Options tune an informer.
type Options struct {
	// ResyncPeriod is the default for handlers added without their own.
	ResyncPeriod time.Duration
	Indexers     cache.Indexers
	// Transform, if set, rewrites every object before it is cached and
	// handed to handlers (informers.TrimManagedFields drops what no
	// controller reads). It must be idempotent: a relist passes objects
	// already cached through it again. Kubernetes: SharedIndexInformer's
	// SetTransform.
	Transform deltafifo.TransformFunc
}

// minimumResyncPeriod keeps handlers from asking for a resync storm.
const minimumResyncPeriod = time.Second

type sharedIndexInformer struct {
	name          string
	lw            reflector.ListerWatcher
	indexer       cache.Indexer
	defaultResync time.Duration
	transform     deltafifo.TransformFunc
	detector      *MutationDetector
	// fifo and refl are set once by Run; HasSynced reads fifo without mu
	// because listeners ask while the informer may hold mu.
	fifo atomic.Pointer[deltafifo.DeltaFIFO]
	refl atomic.Pointer[reflector.Reflector]

	// mu guards the fields below and, while held, stops deltas from being
	// distributed: a handler added after start sees the cache's current
	// content and then exactly the changes after it.
	mu                sync.Mutex
	listeners         []*listener
	started, stopped  bool
	resyncCheckPeriod time.Duration // the smallest resync period of any handler
	component         string        // runs the informer (from Run's context), for traces
}

// NewSharedIndexInformer makes an informer for the resource lw lists.
func NewSharedIndexInformer(name string, lw reflector.ListerWatcher, opts Options) SharedIndexInformer {
	idx := cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}
	maps.Copy(idx, opts.Indexers)
	return &sharedIndexInformer{
		name: name, lw: lw, defaultResync: opts.ResyncPeriod, resyncCheckPeriod: opts.ResyncPeriod, transform: opts.Transform,
		indexer:  cache.NewIndexer(deltafifo.DeletionHandlingMetaNamespaceKeyFunc, idx),
		detector: NewMutationDetectorFromEnv(name),
	}
}

func (s *sharedIndexInformer) GetIndexer() cache.Indexer          { return s.indexer }
func (s *sharedIndexInformer) AddIndexers(i cache.Indexers) error { return s.indexer.AddIndexers(i) }

func (s *sharedIndexInformer) HasSynced() bool {
	f := s.fifo.Load()
	return f != nil && f.HasSynced()
}

func (s *sharedIndexInformer) AddEventHandler(h ResourceEventHandler) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithResyncPeriod(h, s.defaultResync)
}

func (s *sharedIndexInformer) LastSyncResourceVersion() string {
	if r := s.refl.Load(); r != nil {
		return r.LastSyncResourceVersion()
	}
	return ""
}

func (s *sharedIndexInformer) AddEventHandlerWithResyncPeriod(h ResourceEventHandler, resync time.Duration) (ResourceEventHandlerRegistration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return nil, errors.New("informer has stopped; handler not added")
	}
	if resync > 0 {
		resync = max(resync, minimumResyncPeriod)
		if !s.started && (s.resyncCheckPeriod == 0 || resync < s.resyncCheckPeriod) {
			s.resyncCheckPeriod = resync
		}
	}
	l := newListener(h, resync, s.HasSynced)
	s.listeners = append(s.listeners, l)
	if s.started {
		go l.run()
		// A late handler first gets the cache as adds; holding mu keeps
		// new deltas from slipping in between.
		for _, o := range s.indexer.List() {
			l.add(notification{kind: addNotification, newObj: o, isInInitialList: true})
		}
	}
	return l, nil
}

// Run starts the reflector and distributes deltas until ctx ends.
func (s *sharedIndexInformer) Run(ctx context.Context) {
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		return
	}
	s.component = trace.ComponentFrom(ctx)
	fifo := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{
		KnownObjects: s.indexer, EmitDeltaTypeReplaced: true, Name: s.component, Transformer: s.transform})
	refl := reflector.NewReflector(s.name, s.lw, fifo, s.resyncCheckPeriod)
	refl.ShouldResync = s.shouldResync
	refl.UseWatchList = true // client-go's default since 1.35 (WatchListClient)
	s.fifo.Store(fifo)
	s.refl.Store(refl)
	s.started = true
	for _, l := range s.listeners {
		go l.run()
	}
	s.mu.Unlock()

	go refl.Run(ctx)
	go s.detector.Run(ctx)
	context.AfterFunc(ctx, fifo.Close)
	for {
		if _, err := fifo.Pop(s.handleDeltas); errors.Is(err, deltafifo.ErrFIFOClosed) {
			break
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	for _, l := range s.listeners {
		l.stop()
	}
}

// handleDeltas applies one key's deltas, oldest first, to the indexer and
// tells the handlers. It runs inside Pop, under the FIFO's lock, and takes
// mu so that late handlers see a consistent cut.
func (s *sharedIndexInformer) handleDeltas(obj any, isInInitialList bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range obj.(deltafifo.Deltas) {
		if d.Type == deltafifo.Deleted {
			if err := s.indexer.Delete(d.Object); err != nil {
				return err
			}
			s.distribute(notification{kind: deleteNotification, oldObj: d.Object}, false)
			continue
		}
		// Sync, Replaced, Added or Updated: the object is now d.Object.
		s.detector.AddObject(d.Object)
		old, exists, err := s.indexer.Get(d.Object)
		if err == nil {
			err = s.indexer.Update(d.Object) // the Indexer's Add is Update
		}
		if err != nil {
			return err
		}
		if !exists {
			s.distribute(notification{kind: addNotification, newObj: d.Object, isInInitialList: isInInitialList}, false)
			continue
		}
		// A resync, or a relist that found the object unchanged, reaches
		// only the handlers whose resync is due.
		isSync := d.Type == deltafifo.Sync || (d.Type == deltafifo.Replaced && sameResourceVersion(old, d.Object))
		s.distribute(notification{kind: updateNotification, oldObj: old, newObj: d.Object}, isSync)
	}
	return nil
}

// distribute hands n to every listener; a resync notification only to those
// whose resync is due (chosen in shouldResync).
func (s *sharedIndexInformer) distribute(n notification, isSync bool) {
	s.traceHandled(n, isSync)
	for _, l := range s.listeners {
		if !isSync || l.syncing {
			l.add(n)
		}
	}
}

// shouldResync is asked by the reflector at every tick: it marks the
// listeners whose period is due and says whether any is.
func (s *sharedIndexInformer) shouldResync() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	now, any := time.Now(), false
	for _, l := range s.listeners {
		l.syncing = l.resyncDue(now)
		any = any || l.syncing
	}
	return any
}

func sameResourceVersion(a, b any) bool {
	ao, ok1 := a.(api.Object)
	bo, ok2 := b.(api.Object)
	return ok1 && ok2 && ao.GetObjectMeta().ResourceVersion == bo.GetObjectMeta().ResourceVersion
}

// WaitForCacheSync polls the given HasSynced functions until all are true or
// ctx ends; it reports whether they all synced.
func WaitForCacheSync(ctx context.Context, synced ...func() bool) bool {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for slices.ContainsFunc(synced, func(hasSynced func() bool) bool { return !hasSynced() }) {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
	return true
}
