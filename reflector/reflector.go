package reflector

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"kubeloop/api"
)

// ListerWatcher is what the reflector reads: a LIST and a WATCH of one resource.
type ListerWatcher interface {
	List(ctx context.Context, opts api.ListOptions) (api.ListObject, error)
	Watch(ctx context.Context, opts api.ListOptions) (api.Watcher, error)
}

// ReflectorStore is what the reflector writes to (client-go's name): a
// DeltaFIFO (an informer's), not store.Store (etcd's side).
type ReflectorStore interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	Replace(list []any, resourceVersion string) error
	Resync() error
}

const defaultPageSize = 500 // client-go's LIST page size

// Reflector mirrors one resource into a ReflectorStore.
type Reflector struct {
	name         string
	lw           ListerWatcher
	store        ReflectorStore
	resyncPeriod time.Duration
	log          *slog.Logger

	// ShouldResync, if set, says at each resync tick whether to Resync.
	ShouldResync func() bool
	// UseWatchList loads the state with a sendInitialEvents WATCH, not a LIST.
	UseWatchList bool
	// BackoffInitial and BackoffCap tune Run's Backoff; tests shorten them.
	BackoffInitial, BackoffCap time.Duration

	// mu guards the version the store reflects and whether a LIST at it got 410.
	mu                                 sync.Mutex
	lastSyncResourceVersion            string
	lastSyncResourceVersionUnavailable bool
}

// NewReflector makes a reflector named name (used in logs).
func NewReflector(name string, lw ListerWatcher, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return &Reflector{name: name, lw: lw, store: store, resyncPeriod: resyncPeriod,
		log:            slog.Default().With("component", "reflector", "resource", name),
		BackoffInitial: 800 * time.Millisecond, BackoffCap: 30 * time.Second}
}

// LastSyncResourceVersion is the version of the newest state handed to the store.
func (r *Reflector) LastSyncResourceVersion() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastSyncResourceVersion
}

// setLastSyncResourceVersion records a version the store reflects.
func (r *Reflector) setLastSyncResourceVersion(rv string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastSyncResourceVersion, r.lastSyncResourceVersionUnavailable = rv, false
}

// relistResourceVersion picks the next LIST's version: "0" at first (any
// freshness: the watch cache serves it), then the last synced one so time
// never goes backwards, and "" once that one is too old.
func (r *Reflector) relistResourceVersion() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lastSyncResourceVersionUnavailable {
		return ""
	}
	return cmp.Or(r.lastSyncResourceVersion, "0")
}

// Run calls ListAndWatch until ctx ends, backing off after a failure; a nil
// return (a 410, a finished watch) re-lists at once.
func (r *Reflector) Run(ctx context.Context) {
	b := &Backoff{Initial: r.BackoffInitial, Cap: r.BackoffCap, ResetAfter: 2 * time.Minute}
	for ctx.Err() == nil {
		if err := r.ListAndWatch(ctx); err != nil && ctx.Err() == nil {
			wait := b.Next(time.Now())
			r.log.Info("list and watch failed; backing off", "err", err, "wait", wait)
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
		}
	}
}

// ListAndWatch loads the full state, then follows changes until the watch
// needs a new LIST (nil) or fails (an error: back off first). As in
// client-go's watchWithResync, resyncs run from the moment the state loaded.
func (r *Reflector) ListAndWatch(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := r.watchList(ctx) // nil, nil without UseWatchList
	if err != nil && ctx.Err() == nil {
		// As client-go: whatever failed (a server without WatchList rejects
		// sendInitialEvents as Invalid), LIST now; the next relist streams again.
		r.log.Info("watch-list failed; falling back to list", "err", err)
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
// Continued pages are read at the version their token carries.
func (r *Reflector) list(ctx context.Context) error {
	rv := r.relistResourceVersion()
	var items []any
	listRV := ""
	opts := api.ListOptions{ResourceVersion: rv, Limit: defaultPageSize}
	for {
		page, err := r.lw.List(ctx, opts)
		if (api.IsExpired(err) || api.IsTooLargeResourceVersion(err)) && rv != "" {
			r.mu.Lock() // the version is gone or not yet there: ask for the latest
			r.lastSyncResourceVersionUnavailable = true
			r.mu.Unlock()
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
	return nil
}

// watchList gets the state from one WATCH with sendInitialEvents: ADDED for
// every object, then a BOOKMARK annotated k8s.io/initial-events-end. It
// replaces the store with them and returns the open watch for what follows.
func (r *Reflector) watchList(ctx context.Context) (api.Watcher, error) {
	if !r.UseWatchList {
		return nil, nil
	}
	opts := watchOptions(r.LastSyncResourceVersion())
	opts.ResourceVersionMatch, opts.SendInitialEvents = "NotOlderThan", new(true)
	w, err := r.lw.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	var items []any
	for err == nil {
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case ev, ok := <-w.ResultChan():
			switch {
			case !ok:
				err = fmt.Errorf("watch-list %s: stream ended before the initial events did", r.name)
			case ev.Type == api.Added:
				items = append(items, ev.Object)
			case ev.Type == api.Error:
				err = statusError(ev.Object)
			case ev.Type != api.Bookmark:
				err = fmt.Errorf("watch-list %s: unexpected %s during initial events", r.name, ev.Type)
			case ev.Object.GetObjectMeta().Annotations[api.InitialEventsAnnotation] == "true":
				rv := ev.Object.GetObjectMeta().ResourceVersion
				if err = r.store.Replace(items, rv); err == nil {
					r.setLastSyncResourceVersion(rv)
					return w, nil
				}
			}
		}
	}
	w.Stop()
	return nil, err
}

// watchOptions are those of every WATCH: from rv, with bookmarks, and a
// random timeout in [5, 10) minutes so that clients do not all re-watch at once.
func watchOptions(rv string) api.ListOptions {
	timeout := int64(300 * (1 + rand.Float64()))
	return api.ListOptions{Watch: true, ResourceVersion: rv, AllowWatchBookmarks: true, TimeoutSeconds: &timeout}
}

// watchLoop follows w (the watch-list stream, or nil after a LIST) and
// re-opens the watch from the last version each time it ends normally.
func (r *Reflector) watchLoop(ctx context.Context, w api.Watcher) error {
	for ; ctx.Err() == nil; w = nil {
		var err error
		if w == nil {
			w, err = r.lw.Watch(ctx, watchOptions(r.LastSyncResourceVersion()))
		}
		if err == nil {
			err = r.handleWatch(ctx, w)
		}
		if api.IsExpired(err) {
			return nil // too old: list again
		}
		if err != nil {
			return fmt.Errorf("watch %s: %w", r.name, err)
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
			if !ok && events == 0 && time.Since(start) < time.Second {
				return errShortWatch
			} else if !ok {
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
	case api.Added:
		err = r.store.Add(ev.Object)
	case api.Modified:
		err = r.store.Update(ev.Object)
	case api.Deleted:
		err = r.store.Delete(ev.Object)
	case api.Bookmark:
	case api.Error:
		return statusError(ev.Object)
	default:
		return fmt.Errorf("unknown event type %q", ev.Type)
	}
	if rv := ev.Object.GetObjectMeta().ResourceVersion; err == nil && rv != "" {
		r.setLastSyncResourceVersion(rv)
	}
	return err
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
		}
		if r.ShouldResync == nil || r.ShouldResync() {
			if err := r.store.Resync(); err != nil {
				r.log.Error("resync failed", "err", err)
			}
		}
	}
}
