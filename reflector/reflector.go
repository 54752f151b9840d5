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
// resource. The client implements it over HTTP. List must return items whose
// resourceVersions are set, and a ListMeta carrying the list's version.
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
	// the store's Resync (the informer resyncs only when a handler is due).
	ShouldResync func() bool
	// UseWatchList streams the initial state through a WATCH with
	// sendInitialEvents=true; on rejection the reflector falls back to LIST.
	UseWatchList bool
	// Backoff tuning (client-go: 800 ms to 30 s); tests shorten it.
	BackoffInitial, BackoffCap time.Duration

	// watchListUnsupported is set once the server rejected
	// sendInitialEvents; only ListAndWatch, on Run's goroutine, touches it.
	watchListUnsupported bool

	mu sync.Mutex
	// lastSyncResourceVersion is the newest version the store reflects;
	// lastSyncResourceVersionUnavailable is set when a LIST at it got 410,
	// so the next LIST must be a consistent read ("").
	lastSyncResourceVersion            string
	lastSyncResourceVersionUnavailable bool
}

// NewReflector makes a reflector named name (used in logs).
func NewReflector(name string, lw ListerWatcher, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return &Reflector{
		name: name, lw: lw, store: store, resyncPeriod: resyncPeriod,
		log:            slog.Default().With("component", "reflector", "resource", name),
		BackoffInitial: 800 * time.Millisecond,
		BackoffCap:     30 * time.Second,
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

// setLastSyncResourceVersionUnavailable records whether a LIST at the last
// synced version got 410.
func (r *Reflector) setLastSyncResourceVersionUnavailable(unavailable bool) {
	r.mu.Lock()
	r.lastSyncResourceVersionUnavailable = unavailable
	r.mu.Unlock()
}

// relistResourceVersion picks the version of the next LIST: "0" the first
// time (any freshness, from the watch cache), then the last synced version so
// time never goes backwards, and "" after that version turned out too old.
func (r *Reflector) relistResourceVersion() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.lastSyncResourceVersionUnavailable:
		return ""
	case r.lastSyncResourceVersion == "":
		return "0"
	}
	return r.lastSyncResourceVersion
}

// Run calls ListAndWatch until ctx ends, backing off after failures; a nil
// return (a 410, a finished watch) re-lists at once.
func (r *Reflector) Run(ctx context.Context) {
	b := &Backoff{Initial: r.BackoffInitial, Cap: r.BackoffCap, ResetAfter: backoffResetAfterQuiet}
	for ctx.Err() == nil {
		err := r.ListAndWatch(ctx)
		if err == nil || ctx.Err() != nil {
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
// needs a new LIST (nil) or fails (an error: back off first). As in
// client-go's watchWithResync, resyncs run from the moment the state is
// loaded, and a watch-list stream is followed like a watch after a LIST.
func (r *Reflector) ListAndWatch(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var w api.Watcher
	if r.UseWatchList && !r.watchListUnsupported {
		var err error
		switch w, err = r.watchList(ctx); {
		case api.IsInvalid(err) || api.IsBadRequest(err):
			r.watchListUnsupported = true
			r.log.Info("server does not support watch-list; falling back to list", "err", err)
		case err != nil:
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

// list pages through a LIST and replaces the store's content with it.
// Continued pages are read at the first page's version, which their token
// carries, so they must not set one.
func (r *Reflector) list(ctx context.Context) error {
	rv := r.relistResourceVersion()
	var items []any
	listRV := ""
	opts := api.ListOptions{ResourceVersion: rv, Limit: defaultPageSize}
	for {
		page, err := r.lw.List(ctx, opts)
		if api.IsExpired(err) && rv != "" {
			// The version we asked for is gone: ask for the latest instead.
			r.setLastSyncResourceVersionUnavailable(true)
			return r.list(ctx)
		}
		if err != nil {
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
		opts = api.ListOptions{Continue: meta.Continue, Limit: defaultPageSize}
	}
	if err := r.store.Replace(items, listRV); err != nil {
		return fmt.Errorf("replace %s: %w", r.name, err)
	}
	r.setLastSyncResourceVersion(listRV)
	r.setLastSyncResourceVersionUnavailable(false)
	r.log.Debug("listed", "items", len(items), "resourceVersion", listRV)
	return nil
}

// watchOptions are those of every WATCH: from rv, with bookmarks, and a
// random timeout in [5, 10) minutes so that many clients' watches do not
// all end, and come back, at once.
func watchOptions(rv string) api.ListOptions {
	timeout := int64(minWatchTimeout.Seconds() * (1 + rand.Float64()))
	return api.ListOptions{Watch: true, ResourceVersion: rv, AllowWatchBookmarks: true, TimeoutSeconds: &timeout}
}

// watchLoop follows w (the watch-list stream, or nil after a LIST) and
// re-opens the watch from the last version each time it ends normally.
func (r *Reflector) watchLoop(ctx context.Context, w api.Watcher) error {
	for ; ctx.Err() == nil; w = nil {
		var err error
		if w == nil {
			if w, err = r.lw.Watch(ctx, watchOptions(r.LastSyncResourceVersion())); err != nil {
				err = fmt.Errorf("watch %s: %w", r.name, err)
			}
		}
		if err == nil {
			err = r.handleWatch(ctx, w)
		}
		if api.IsExpired(err) {
			return nil // too old: list again
		}
		if err != nil {
			return err
		}
	}
	return nil
}

var errShortWatch = errors.New("very short watch: ended in under a second with no events")

// handleWatch applies the events of one watch to the store until it ends.
func (r *Reflector) handleWatch(ctx context.Context, w api.Watcher) error {
	defer w.Stop()
	start, events := time.Now(), 0
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.ResultChan():
			if !ok && events == 0 && time.Since(start) < shortWatchThreshold {
				return errShortWatch
			}
			if !ok {
				return nil
			}
			events++
			r.traceReceived(ctx, ev)
			if err := r.apply(ev); err != nil {
				return err
			}
		}
	}
}

// apply hands one event to the store and records its version.
func (r *Reflector) apply(ev api.WatchEvent) error {
	var err error
	switch ev.Type {
	case api.Error:
		return fmt.Errorf("watch %s: %w", r.name, statusError(ev.Object))
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

// statusError is the error an ERROR event carries.
func statusError(obj api.Object) error {
	if s, ok := obj.(*api.Status); ok {
		return &api.StatusError{ErrStatus: *s}
	}
	return fmt.Errorf("error event with %T", obj)
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
