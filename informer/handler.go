package informer

import (
	"sync"
	"time"
)

// ResourceEventHandler receives an informer's notifications. OnDelete may
// receive a deltafifo.DeletedFinalStateUnknown when the deletion happened
// while the watch was down and the informer only learned of it on re-list.
type ResourceEventHandler interface {
	OnAdd(obj any, isInInitialList bool)
	OnUpdate(oldObj, newObj any)
	OnDelete(obj any)
}

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

// A notification is one handler call to make. client-go has a type for
// each kind (addNotification, updateNotification, deleteNotification); one
// struct with a typed kind keeps the listener's buffer from allocating per
// notification (BenchmarkInformerInitialSync10kPods).
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

// listener runs one handler on its own goroutine, with an unbounded buffer in
// front of it, so a slow handler delays only itself and the informer's
// distribution never blocks. client-go's processorListener does the same with
// a ring buffer.
type listener struct {
	handler      ResourceEventHandler
	resyncPeriod time.Duration
	// upstreamSynced is the informer's HasSynced.
	upstreamSynced func() bool

	mu      sync.Mutex
	cond    *sync.Cond
	pending []notification
	stopped bool
	// initialPending counts initial-list notifications not yet handled.
	initialPending int
	nextResync     time.Time
	// syncing is set by the informer (under its lock) for listeners whose
	// resync is due at the current tick.
	syncing bool
}

func newListener(h ResourceEventHandler, resync time.Duration, upstream func() bool, now time.Time) *listener {
	l := &listener{handler: h, resyncPeriod: resync, upstreamSynced: upstream, nextResync: now.Add(resync)}
	l.cond = sync.NewCond(&l.mu)
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
	l.stopped = true
	l.cond.Broadcast()
	l.mu.Unlock()
}

// HasSynced asks the informer first and takes the listener's lock only
// after: the informer's answer needs the DeltaFIFO's lock, and Pop holds
// that lock while it adds to this listener, so holding ours while asking
// could deadlock. The order also keeps the answer right: once the informer
// has synced, every initial notification has already been counted here.
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
