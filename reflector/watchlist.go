package reflector

import (
	"context"
	"fmt"

	"kubeloop/api"
)

// watchList gets the initial state from a single WATCH with
// sendInitialEvents=true: ADDED events for every object, then a BOOKMARK
// annotated k8s.io/initial-events-end. It replaces the store with what it
// collected and returns the still-open watch for the live events.
func (r *Reflector) watchList(ctx context.Context) (api.Watcher, error) {
	send := true
	opts := watchOptions(r.LastSyncResourceVersion())
	opts.ResourceVersionMatch, opts.SendInitialEvents = "NotOlderThan", &send
	w, err := r.lw.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	var items []any
	for {
		var ev api.WatchEvent
		var ok bool
		select {
		case <-ctx.Done():
			w.Stop()
			return nil, ctx.Err()
		case ev, ok = <-w.ResultChan():
		}
		switch {
		case ok && ev.Type == api.Added:
			items = append(items, ev.Object)
			continue
		case ok && ev.Type == api.Bookmark:
			meta := ev.Object.GetObjectMeta()
			if meta.Annotations[api.InitialEventsAnnotation] != "true" {
				continue
			}
			if err = r.store.Replace(items, meta.ResourceVersion); err == nil {
				r.setLastSyncResourceVersion(meta.ResourceVersion)
				return w, nil
			}
		case !ok:
			err = fmt.Errorf("watch-list %s: stream ended before the initial events did", r.name)
		case ev.Type == api.Error:
			err = statusError(ev.Object)
		default:
			err = fmt.Errorf("watch-list %s: unexpected %s during initial events", r.name, ev.Type)
		}
		w.Stop()
		return nil, err
	}
}
