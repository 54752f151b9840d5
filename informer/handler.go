package informer

import (
	"sync"
	"time"

	"kubeloop/deltafifo"
)

// ResourceEventHandler receives an informer's notifications. OnDelete may
// receive a DeletedFinalStateUnknown when the deletion happened while the
// watch was down and the informer only learned of it on re-list.
type ResourceEventHandler interface {
	OnAdd(obj any, isInInitialList bool)
	OnUpdate(oldObj, newObj any)
	OnDelete(obj any)
}

// DeletedFinalStateUnknown is deltafifo's tombstone, re-exported so that
// controllers need not import the queue below the informer (client-go keeps
// both in tools/cache).
type DeletedFinalStateUnknown = deltafifo.DeletedFinalStateUnknown

// ResourceEventHandlerFuncs adapts plain functions; nil ones are skipped.
type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj any, isInInitialList bool)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
}

func (f ResourceEventHandlerFuncs) OnAdd(obj any, initial bool) {
	if f.AddFunc != nil {
		f.AddFunc(obj, initial)
	}
}

func (f ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj any) {
	if f.UpdateFunc != nil {
		f.UpdateFunc(oldObj, newObj)
	}
}

func (f ResourceEventHandlerFuncs) OnDelete(obj any) {
	if f.DeleteFunc != nil {
		f.DeleteFunc(obj)
	}
}

// ResourceEventHandlerRegistration is the handle AddEventHandler returns.
// HasSynced is true once the informer has synced and this handler has been
// called for every object of the initial list.
type ResourceEventHandlerRegistration interface {
	HasSynced() bool
}

// A notification is one handler call to make. client-go has a type per
// kind; one struct with a typed kind keeps the listener's buffer from
// allocating per notification (BenchmarkInformerInitialSync10kPods).
type notification struct {
	kind            notificationKind
	oldObj, newObj  any
	isInInitialList bool
}

type notificationKind int

const (
	addNotification notificationKind = iota
	updateNotification
	deleteNotification
)

// listener runs one handler on its own goroutine behind an unbounded buffer,
// so a slow handler delays only itself and distribution never blocks
// (client-go's processorListener, with a ring buffer).
type listener struct {
	handler        ResourceEventHandler
	resyncPeriod   time.Duration
	upstreamSynced func() bool // the informer's HasSynced

	mu             sync.Mutex
	cond           sync.Cond
	pending        []notification
	stopped        bool
	initialPending int // initial-list notifications not yet handled
	nextResync     time.Time
	// syncing is set by the informer, under its mu, when this listener's
	// resync is due at the current tick.
	syncing bool
}

func newListener(h ResourceEventHandler, resync time.Duration, upstream func() bool) *listener {
	l := &listener{handler: h, resyncPeriod: resync, upstreamSynced: upstream, nextResync: time.Now().Add(resync)}
	l.cond.L = &l.mu
	return l
}

func (l *listener) add(n notification) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped {
		return
	}
	if n.isInInitialList {
		l.initialPending++
	}
	l.pending = append(l.pending, n)
	l.cond.Signal()
}

func (l *listener) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
	l.cond.Broadcast()
}

// HasSynced asks the informer before taking the listener's lock: the
// informer's answer needs the DeltaFIFO's lock, which Pop holds while it
// adds to this listener. Once the informer has synced, every initial
// notification has been counted here, so the answer is also right.
func (l *listener) HasSynced() bool {
	if !l.upstreamSynced() {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.initialPending == 0
}

// run delivers notifications in order until stop.
func (l *listener) run() {
	for {
		l.mu.Lock()
		for len(l.pending) == 0 && !l.stopped {
			l.cond.Wait()
		}
		if l.stopped {
			l.mu.Unlock()
			return
		}
		n := l.pending[0]
		l.pending[0] = notification{}
		l.pending = l.pending[1:]
		l.mu.Unlock()

		switch n.kind {
		case addNotification:
			l.handler.OnAdd(n.newObj, n.isInInitialList)
		case updateNotification:
			l.handler.OnUpdate(n.oldObj, n.newObj)
		case deleteNotification:
			l.handler.OnDelete(n.oldObj)
		}
		if n.isInInitialList {
			l.mu.Lock()
			l.initialPending--
			l.mu.Unlock()
		}
	}
}

// resyncDue reports whether this listener wants the resync happening now,
// and if so schedules its next one.
func (l *listener) resyncDue(now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.resyncPeriod <= 0 || now.Before(l.nextResync) {
		return false
	}
	l.nextResync = now.Add(l.resyncPeriod)
	return true
}
