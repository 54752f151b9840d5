package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
)

// watchBufferSize bounds the events decoded but not yet taken by the
// consumer. A slow consumer stalls the producer, and etcd's client then
// buffers on its side; nothing here grows without limit.
const watchBufferSize = 100

const watchExpiredMsg = "The resourceVersion for the provided watch is too old."

// Watch streams the changes under prefix, as etcd's own watch does, turned
// into Kubernetes events.
//
// A revision that is already compacted is detected up front and returned as
// a 410 Expired error; if compaction overtakes a running watch, the stream
// ends with one ERROR event carrying the 410 Expired Status, and the
// channel is closed. Either way the caller re-lists.
func (s *Store) Watch(ctx context.Context, prefix string, opts ListOptions) (api.Watcher, error) {
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	rev, err := parseRV(opts.ResourceVersion)
	if err != nil {
		return nil, err
	}
	// "" and "0" mean "the current state, then changes"; an explicit
	// sendInitialEvents overrides that either way.
	initial := rev == 0
	if opts.SendInitialEvents != nil {
		initial = *opts.SendInitialEvents
	}

	var initialKvs []*mvccpb.KeyValue
	switch {
	case initial:
		getOpts := []clientv3.OpOption{clientv3.WithPrefix()}
		if rev != 0 {
			getOpts = append(getOpts, clientv3.WithRev(rev))
		}
		resp, err := s.client.Get(ctx, prefix, getOpts...)
		if isFutureRev(err) {
			current, cerr := s.currentRev(ctx)
			if cerr != nil {
				return nil, cerr
			}
			return nil, api.NewTooLargeResourceVersion(uint64(rev), uint64(current), 1)
		}
		if err != nil {
			return nil, s.watchError(err, prefix)
		}
		initialKvs, rev = resp.Kvs, resp.Header.Revision
	case rev == 0:
		if rev, err = s.currentRev(ctx); err != nil {
			return nil, err
		}
	default:
		// Reading the first revision the watch needs tells us whether it is
		// compacted, before any stream is opened. A revision in the future
		// is fine: the watch simply waits for it.
		_, err := s.client.Get(ctx, prefix, clientv3.WithRev(rev+1), clientv3.WithCountOnly())
		if err != nil && !isFutureRev(err) {
			return nil, s.watchError(err, prefix)
		}
	}

	wctx, cancel := context.WithCancel(ctx)
	// A stream of its own (watch_streams.go), with WithRequireLeader: a
	// partitioned member ends the watch instead of silently going quiet.
	sctx, forget := s.newStream(wctx)
	w := &watcher{
		store:     s,
		bookmarks: opts.AllowWatchBookmarks,
		pred:      opts.Predicate,
		cancel:    func() { forget(); cancel() },
		result:    make(chan api.WatchEvent, watchBufferSize),
		done:      make(chan struct{}),
	}
	// WithPrevKV gives DELETED its last state.
	wch := s.client.Watch(sctx, prefix, clientv3.WithPrefix(), clientv3.WithRev(rev+1), clientv3.WithPrevKV())
	bookmark := initial && opts.AllowWatchBookmarks && opts.SendInitialEvents != nil && *opts.SendInitialEvents
	go w.run(wctx, initialKvs, rev, bookmark, wch)
	return w, nil
}

func (s *Store) currentRev(ctx context.Context) (int64, error) {
	rv, err := s.CurrentResourceVersion(ctx)
	return int64(rv), err
}

func (s *Store) watchError(err error, prefix string) error {
	if isCompacted(err) {
		return api.NewResourceExpired(watchExpiredMsg)
	}

	return fmt.Errorf("watch %s: %w", prefix, err)
}

// watcher is one running watch: a goroutine turning etcd responses into
// events on result. result is closed (and done after it) when that
// goroutine ends, whether by Stop, by the context, or by an error.
type watcher struct {
	store *Store
	// bookmarks: turn etcd progress notifications into BOOKMARK events.
	bookmarks bool
	pred      SelectionPredicate
	cancel    context.CancelFunc
	result    chan api.WatchEvent
	done      chan struct{}
}

func (w *watcher) ResultChan() <-chan api.WatchEvent { return w.result }

// Stop ends the watch and returns once the producer has exited and the
// channel is closed. It may be called any number of times.
func (w *watcher) Stop() {
	w.cancel()
	<-w.done
}

func (w *watcher) run(ctx context.Context, initialKvs []*mvccpb.KeyValue, rev int64, bookmark bool, wch clientv3.WatchChan) {
	defer close(w.done)
	defer close(w.result)
	defer w.cancel()

	for _, kv := range initialKvs {
		if w.store.notOurs(kv.Value) {
			continue
		}
		obj, err := w.store.decode(kv.Value, kv.ModRevision)
		if err != nil {
			w.sendError(ctx, api.NewInternalError(err))
			return
		}
		if w.pred.Matches(w.store.info, obj) && !w.send(ctx, api.WatchEvent{Type: api.Added, Object: obj}) {
			return
		}
	}
	if bookmark {
		// Tells a sendInitialEvents watcher that the initial state is
		// complete at rev.
		obj := w.store.info.New()
		w.store.setTypeMeta(obj)
		setRV(obj, rev)
		obj.GetObjectMeta().Annotations = map[string]string{api.InitialEventsAnnotation: "true"}
		if !w.send(ctx, api.WatchEvent{Type: api.Bookmark, Object: obj}) {
			return
		}
	}

	for {
		var resp clientv3.WatchResponse
		var ok bool
		select {
		case <-ctx.Done():
			return
		case resp, ok = <-wch:
		}
		if !ok || ctx.Err() != nil {
			return
		}
		if err := resp.Err(); err != nil {
			if resp.CompactRevision != 0 {
				w.sendError(ctx, api.NewResourceExpired(watchExpiredMsg))
			} else {
				w.sendError(ctx, api.NewInternalError(err))
			}
			return
		}
		if resp.IsProgressNotify() {
			// etcd promises every change up to this revision was sent:
			// a bookmark lets the watch cache prove it is current even
			// when nothing under this prefix changes.
			if w.bookmarks && !w.send(ctx, w.bookmark(resp.Header.Revision)) {
				return
			}
			continue
		}
		for _, ev := range resp.Events {
			event, ok, err := w.transform(ev)
			if err != nil {
				w.sendError(ctx, api.NewInternalError(err))
				return
			}
			if ok && !w.send(ctx, event) {
				return
			}
		}
	}
}

func (w *watcher) bookmark(rev int64) api.WatchEvent {
	obj := w.store.info.New()
	w.store.setTypeMeta(obj)
	setRV(obj, rev)
	return api.WatchEvent{Type: api.Bookmark, Object: obj}
}

// RequestWatchProgress asks etcd to send a progress notification on every
// open watch of this Store; each watch that allows bookmarks turns it into
// a BOOKMARK at etcd's current revision. The watch cache uses it for
// consistent reads of resources nobody is writing.
// Kubernetes: storage.Interface.RequestWatchProgress (etcd3/store.go),
// which asks on the one stream all its client's watches share; ours have
// a stream each (watch_streams.go).
func (s *Store) RequestWatchProgress(ctx context.Context) error {
	return s.requestProgress(ctx)
}

// transform turns one etcd event into the event a watcher with this
// predicate should see. An object that starts or stops matching the
// predicate is ADDED or DELETED for this watcher, even though etcd saw a
// plain update: that is what keeps a filtered cache right.
func (w *watcher) transform(ev *clientv3.Event) (api.WatchEvent, bool, error) {
	s, pred, rev := w.store, w.pred, ev.Kv.ModRevision
	if ev.Type == clientv3.EventTypeDelete {
		if ev.PrevKv == nil {
			return api.WatchEvent{}, false, errors.New("etcd delete event without the previous value")
		}
		if s.notOurs(ev.PrevKv.Value) {
			return api.WatchEvent{}, false, nil
		}
		old, err := s.decode(ev.PrevKv.Value, rev)
		if err != nil {
			return api.WatchEvent{}, false, err
		}
		return api.WatchEvent{Type: api.Deleted, Object: old}, pred.Matches(s.info, old), nil
	}

	if s.notOurs(ev.Kv.Value) {
		// A built-in object under a custom resource's keys; a key never
		// changes from one to the other, as both create only absent keys.
		return api.WatchEvent{}, false, nil
	}
	cur, err := s.decode(ev.Kv.Value, rev)
	if err != nil {
		return api.WatchEvent{}, false, err
	}
	created := ev.IsCreate()
	if pred.Empty() || (!created && ev.PrevKv == nil) {
		// No filter (or no previous value to judge): etcd's verdict stands.
		if !pred.Matches(s.info, cur) {
			return api.WatchEvent{}, false, nil
		}
		if created {
			return api.WatchEvent{Type: api.Added, Object: cur}, true, nil
		}
		return api.WatchEvent{Type: api.Modified, Object: cur}, true, nil
	}

	curPasses := pred.Matches(s.info, cur)
	var old api.Object
	oldPasses := false
	if !created {
		if old, err = s.decode(ev.PrevKv.Value, rev); err != nil {
			return api.WatchEvent{}, false, err
		}
		oldPasses = pred.Matches(s.info, old)
	}
	switch {
	case curPasses && oldPasses:
		return api.WatchEvent{Type: api.Modified, Object: cur}, true, nil
	case curPasses:
		return api.WatchEvent{Type: api.Added, Object: cur}, true, nil
	case oldPasses:
		// Left the filter: the last state it matched in, at this revision.
		return api.WatchEvent{Type: api.Deleted, Object: old}, true, nil
	}
	return api.WatchEvent{}, false, nil
}

func (w *watcher) send(ctx context.Context, ev api.WatchEvent) bool {
	select {
	case w.result <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

func (w *watcher) sendError(ctx context.Context, err *api.StatusError) {
	st := err.Status()
	w.send(ctx, api.WatchEvent{Type: api.Error, Object: &st})
}
