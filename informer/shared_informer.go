package informer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"kubeloop/api"
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
	RemoveEventHandler(reg ResourceEventHandlerRegistration) error
	GetIndexer() Indexer
	AddIndexers(Indexers) error
	Run(ctx context.Context)
	HasSynced() bool
	LastSyncResourceVersion() string
}

// minimumResyncPeriod keeps handlers from asking for a resync storm.
const minimumResyncPeriod = time.Second

type sharedIndexInformer struct {
	name          string
	lw            reflector.ListerWatcher
	indexer       Indexer
	defaultResync time.Duration
	detector      *MutationDetector
	useWatchList  bool
	// fifo is set once by Run; HasSynced reads it without mu because
	// listeners ask while the informer may hold mu.
	fifo atomic.Pointer[deltafifo.DeltaFIFO]

	// mu guards the fields below and, while held, stops deltas from being
	// distributed: a handler added after start sees the cache's current
	// content and then exactly the changes after it.
	mu        sync.Mutex
	listeners []*listener
	started   bool
	stopped   bool
	refl      *reflector.Reflector
	// resyncCheckPeriod is the smallest resync period of any handler.
	resyncCheckPeriod time.Duration
	// component runs the informer (from Run's context), for traces.
	component string
}

// Options tune an informer.
type Options struct {
	// ResyncPeriod is the default for handlers added without their own.
	ResyncPeriod time.Duration
	Indexers     Indexers
	// UseWatchList makes the reflector stream the initial state with
	// sendInitialEvents instead of a LIST.
	UseWatchList bool
}

// NewSharedIndexInformer makes an informer for the resource lw lists.
func NewSharedIndexInformer(name string, lw reflector.ListerWatcher, opts Options) SharedIndexInformer {
	idx := Indexers{NamespaceIndex: MetaNamespaceIndexFunc}
	for k, v := range opts.Indexers {
		idx[k] = v
	}
	return &sharedIndexInformer{
		name:              name,
		lw:                lw,
		indexer:           NewIndexer(deltafifo.DeletionHandlingMetaNamespaceKeyFunc, idx),
		defaultResync:     opts.ResyncPeriod,
		resyncCheckPeriod: opts.ResyncPeriod,
		detector:          NewMutationDetectorFromEnv(name),
		useWatchList:      opts.UseWatchList,
	}
}

func (s *sharedIndexInformer) GetIndexer() Indexer { return s.indexer }

func (s *sharedIndexInformer) AddIndexers(i Indexers) error { return s.indexer.AddIndexers(i) }

func (s *sharedIndexInformer) HasSynced() bool {
	f := s.fifo.Load()
	return f != nil && f.HasSynced()
}

func (s *sharedIndexInformer) LastSyncResourceVersion() string {
	s.mu.Lock()
	r := s.refl
	s.mu.Unlock()
	if r == nil {
		return ""
	}
	return r.LastSyncResourceVersion()
}

func (s *sharedIndexInformer) AddEventHandler(h ResourceEventHandler) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithResyncPeriod(h, s.defaultResync)
}

func (s *sharedIndexInformer) AddEventHandlerWithResyncPeriod(h ResourceEventHandler, resync time.Duration) (ResourceEventHandlerRegistration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return nil, errors.New("informer has stopped; handler not added")
	}
	if resync > 0 && resync < minimumResyncPeriod {
		resync = minimumResyncPeriod
	}
	if resync > 0 && !s.started && (s.resyncCheckPeriod == 0 || resync < s.resyncCheckPeriod) {
		s.resyncCheckPeriod = resync
	}
	l := newListener(h, resync, s.HasSynced, time.Now())
	s.listeners = append(s.listeners, l)
	if s.started {
		go l.run()
		// Late handler: replay the cache as adds. Holding mu keeps new
		// deltas from slipping in between.
		for _, o := range s.indexer.List() {
			l.add(notification{kind: addNotification, newObj: o, isInInitialList: true})
		}
	}
	return l, nil
}

func (s *sharedIndexInformer) RemoveEventHandler(reg ResourceEventHandlerRegistration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, l := range s.listeners {
		if l == reg {
			l.stop()
			s.listeners = append(s.listeners[:i], s.listeners[i+1:]...)
			return nil
		}
	}
	return fmt.Errorf("handler registration not found")
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
		KnownObjects:          s.indexer,
		EmitDeltaTypeReplaced: true,
		Name:                  s.component,
	})
	refl := reflector.NewReflector(s.name, s.lw, fifo, s.resyncCheckPeriod)
	refl.ShouldResync = s.shouldResync
	refl.UseWatchList = s.useWatchList
	s.fifo.Store(fifo)
	s.refl, s.started = refl, true
	for _, l := range s.listeners {
		go l.run()
	}
	s.mu.Unlock()

	go refl.Run(ctx)
	go s.detector.Run(ctx)
	go func() {
		<-ctx.Done()
		fifo.Close()
	}()
	for {
		_, err := fifo.Pop(func(obj any, isInInitialList bool) error {
			return s.handleDeltas(obj.(deltafifo.Deltas), isInInitialList)
		})
		if errors.Is(err, deltafifo.ErrFIFOClosed) {
			break
		}
	}
	s.mu.Lock()
	s.stopped = true
	for _, l := range s.listeners {
		l.stop()
	}
	s.mu.Unlock()
}

// handleDeltas applies one key's deltas, oldest first, to the indexer and
// tells the handlers. It runs inside Pop, under the FIFO's lock, and takes
// mu so that late handlers see a consistent cut.
func (s *sharedIndexInformer) handleDeltas(deltas deltafifo.Deltas, isInInitialList bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range deltas {
		switch d.Type {
		case deltafifo.Sync, deltafifo.Replaced, deltafifo.Added, deltafifo.Updated:
			s.detector.AddObject(d.Object)
			old, exists, err := s.indexer.Get(d.Object)
			if err != nil {
				return err
			}
			if exists {
				if err := s.indexer.Update(d.Object); err != nil {
					return err
				}
				isSync := d.Type == deltafifo.Sync ||
					(d.Type == deltafifo.Replaced && sameResourceVersion(old, d.Object))
				s.distribute(notification{kind: updateNotification, oldObj: old, newObj: d.Object}, isSync)
			} else {
				if err := s.indexer.Add(d.Object); err != nil {
					return err
				}
				s.distribute(notification{kind: addNotification, newObj: d.Object, isInInitialList: isInInitialList}, false)
			}
		case deltafifo.Deleted:
			if err := s.indexer.Delete(d.Object); err != nil {
				return err
			}
			s.distribute(notification{kind: deleteNotification, oldObj: d.Object}, false)
		}
	}
	return nil
}

// distribute hands n to every listener; a resync notification only to those
// whose resync is due (chosen in shouldResync).
func (s *sharedIndexInformer) distribute(n notification, isSync bool) {
	s.traceHandled(n, isSync)
	for _, l := range s.listeners {
		if isSync && !l.syncing {
			continue
		}
		l.add(n)
	}
}

// shouldResync is asked by the reflector at every tick: it marks the
// listeners whose period is due and says whether any is.
func (s *sharedIndexInformer) shouldResync() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	any := false
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
