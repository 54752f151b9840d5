package reflector

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"kubeloop/api"
)

// ListerWatcher is what the reflector reads from: a LIST and a WATCH of one
// resource. The client implements it over HTTP; tests may implement it over
// anything. List must return items whose resourceVersions are set, and a
// ListMeta carrying the list's resourceVersion.
type ListerWatcher interface {
	List(ctx context.Context, opts api.ListOptions) (api.ListObject, error)
	Watch(ctx context.Context, opts api.ListOptions) (api.Watcher, error)
}

// ReflectorStore is what the reflector writes to (client-go's name):
// deltafifo.DeltaFIFO implements it, and so does an informer.Indexer. It is
// not store.Store, the apiserver's storage on etcd.
type ReflectorStore interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	Replace(list []any, resourceVersion string) error
	Resync() error
}

// Defaults from client-go.
const (
	defaultPageSize        = 500
	minWatchTimeout        = 5 * time.Minute
	backoffInitial         = 800 * time.Millisecond
	backoffCap             = 30 * time.Second
	backoffResetAfterQuiet = 2 * time.Minute
	shortWatchThreshold    = time.Second
)

// Reflector mirrors one resource into a ReflectorStore.
type Reflector struct {
	name         string
	lw           ListerWatcher
	store        ReflectorStore
	resyncPeriod time.Duration
	log          *slog.Logger

	// ShouldResync, if set, is asked at every resync tick whether to call
	// the store's Resync; the shared informer uses it to resync only when
	// some handler's period is due.
	ShouldResync func() bool

	// UseWatchList streams the initial state through a WATCH with
	// sendInitialEvents=true; on rejection the reflector falls back to LIST.
	UseWatchList bool

	// Backoff tuning; tests shorten it.
	BackoffInitial time.Duration
	BackoffCap     time.Duration

	mu sync.Mutex
	// lastSyncResourceVersion is the newest version the store reflects.
	lastSyncResourceVersion string
	// lastSyncResourceVersionUnavailable is set when a LIST at that version
	// got 410: the next LIST must be a consistent read ("").
	lastSyncResourceVersionUnavailable bool
	// watchListUnsupported is set once the server rejected sendInitialEvents.
	watchListUnsupported bool
}

// NewReflector makes a reflector named name (used in logs).
func NewReflector(name string, lw ListerWatcher, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return &Reflector{
		name: name, lw: lw, store: store, resyncPeriod: resyncPeriod,
		log:            slog.Default().With("component", "reflector", "resource", name),
		BackoffInitial: backoffInitial,
		BackoffCap:     backoffCap,
	}
}

// LastSyncResourceVersion is the version of the newest state handed to the store.
func (r *Reflector) LastSyncResourceVersion() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastSyncResourceVersion
}

func (r *Reflector) setLastSyncResourceVersion(rv string) {
	r.mu.Lock()
	r.lastSyncResourceVersion = rv
	r.mu.Unlock()
}

// relistResourceVersion picks the version of the next LIST: "0" the first
// time (any freshness, from the watch cache), then the last synced version so
// time never goes backwards, and "" after that version turned out too old.
func (r *Reflector) relistResourceVersion() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lastSyncResourceVersionUnavailable {
		return ""
	}
	if r.lastSyncResourceVersion == "" {
		return "0"
	}
	return r.lastSyncResourceVersion
}

// Run calls ListAndWatch until ctx ends, backing off after failures.
func (r *Reflector) Run(ctx context.Context) {
	b := &Backoff{Initial: r.BackoffInitial, Cap: r.BackoffCap, ResetAfter: backoffResetAfterQuiet}
	for ctx.Err() == nil {
		err := r.ListAndWatch(ctx)
		if err == nil || ctx.Err() != nil {
			// A 410 or a finished watch: re-list at once.
			continue
		}
		wait := b.Next(time.Now())
		r.log.Info("list and watch failed; backing off", "err", err, "wait", wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
}

// ListAndWatch loads the full state, then follows changes until the watch
// needs a new LIST or fails. It returns nil when a re-list is the normal
// next step (410, or ctx done). As in client-go's watchWithResync, resyncs
// run from the moment the state is loaded, and a watch-list stream is
// followed exactly like a watch opened after a LIST.
func (r *Reflector) ListAndWatch(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var w api.Watcher
	if r.UseWatchList && !r.watchListUnsupportedNow() {
		var err error
		w, err = r.watchList(ctx)
		switch {
		case err == nil:
		case api.IsInvalid(err) || api.IsBadRequest(err):
			r.mu.Lock()
			r.watchListUnsupported = true
			r.mu.Unlock()
			r.log.Info("server does not support watch-list; falling back to list", "err", err)
		default:
			return err
		}
	}
	if w == nil {
		if err := r.list(ctx); err != nil {
			return err
		}
	}
	if r.resyncPeriod > 0 {
		go r.resyncLoop(ctx)
	}
	return r.watchLoop(ctx, w)
}

func (r *Reflector) watchListUnsupportedNow() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.watchListUnsupported
}

// list pages through a LIST and replaces the store's content with it.
func (r *Reflector) list(ctx context.Context) error {
	rv := r.relistResourceVersion()
	var items []any
	listRV := ""
	opts := api.ListOptions{ResourceVersion: rv, Limit: defaultPageSize}
	for {
		page, err := r.lw.List(ctx, opts)
		if err != nil {
			if api.IsExpired(err) && rv != "" {
				// The version we asked for is gone: ask for the latest instead.
				r.mu.Lock()
				r.lastSyncResourceVersionUnavailable = true
				r.mu.Unlock()
				return r.list(ctx)
			}
			return fmt.Errorf("list %s: %w", r.name, err)
		}
		for _, o := range page.GetItems() {
			items = append(items, o)
		}
		meta := page.GetListMeta()
		if listRV == "" {
			listRV = meta.ResourceVersion
		}
		if meta.Continue == "" {
			break
		}
		// Continued pages are read at the first page's version; the token
		// carries it, so the request must not set one.
		opts = api.ListOptions{Continue: meta.Continue, Limit: defaultPageSize}
	}
	if err := r.store.Replace(items, listRV); err != nil {
		return fmt.Errorf("replace %s: %w", r.name, err)
	}
	r.mu.Lock()
	r.lastSyncResourceVersion = listRV
	r.lastSyncResourceVersionUnavailable = false
	r.mu.Unlock()
	r.log.Debug("listed", "items", len(items), "resourceVersion", listRV)
	return nil
}

// watchLoop follows w (the watch-list stream, or nil after a LIST) and
// re-opens the watch from the last version each time it ends normally. It
// returns nil when a LIST is needed (410) and an error when the reflector
// should back off first.
func (r *Reflector) watchLoop(ctx context.Context, w api.Watcher) error {
	for ; ctx.Err() == nil; w = nil {
		if w == nil {
			timeout := int64(minWatchTimeout.Seconds() * (1 + rand.Float64()))
			var err error
			w, err = r.lw.Watch(ctx, api.ListOptions{
				Watch:               true,
				ResourceVersion:     r.LastSyncResourceVersion(),
				AllowWatchBookmarks: true,
				TimeoutSeconds:      &timeout,
			})
			if err != nil {
				if api.IsExpired(err) {
					return nil
				}
				return fmt.Errorf("watch %s: %w", r.name, err)
			}
		}
		if err := r.handleWatch(ctx, w); err != nil {
			if errors.Is(err, errExpired) {
				return nil
			}
			return err
		}
	}
	return nil
}

var (
	errExpired    = errors.New("watch expired")
	errShortWatch = errors.New("very short watch: ended in under a second with no events")
)

// handleWatch applies the events of one watch to the store until it ends.
func (r *Reflector) handleWatch(ctx context.Context, w api.Watcher) error {
	defer w.Stop()
	start := time.Now()
	events := 0
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.ResultChan():
			if !ok {
				if events == 0 && time.Since(start) < shortWatchThreshold {
					return errShortWatch
				}
				return nil
			}
			events++
			if err := r.apply(ev); err != nil {
				return err
			}
		}
	}
}

// apply hands one event to the store and records its version.
func (r *Reflector) apply(ev api.WatchEvent) error {
	if ev.Type == api.Error {
		if s, ok := ev.Object.(*api.Status); ok {
			err := &api.StatusError{ErrStatus: *s}
			if api.IsExpired(err) {
				return errExpired
			}
			return fmt.Errorf("watch %s: %w", r.name, err)
		}
		return fmt.Errorf("watch %s: error event with %T", r.name, ev.Object)
	}
	var err error
	switch ev.Type {
	case api.Added:
		err = r.store.Add(ev.Object)
	case api.Modified:
		err = r.store.Update(ev.Object)
	case api.Deleted:
		err = r.store.Delete(ev.Object)
	case api.Bookmark:
	default:
		return fmt.Errorf("watch %s: unknown event type %q", r.name, ev.Type)
	}
	if err != nil {
		return fmt.Errorf("store %s: %w", r.name, err)
	}
	if rv := ev.Object.GetObjectMeta().ResourceVersion; rv != "" {
		r.setLastSyncResourceVersion(rv)
	}
	return nil
}

// resyncLoop calls Resync every period until the ListAndWatch ends.
func (r *Reflector) resyncLoop(ctx context.Context) {
	t := time.NewTicker(r.resyncPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if r.ShouldResync != nil && !r.ShouldResync() {
				continue
			}
			if err := r.store.Resync(); err != nil {
				r.log.Error("resync failed", "err", err)
			}
		}
	}
}
