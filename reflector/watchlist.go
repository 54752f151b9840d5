package reflector

import (
	"context"
	"fmt"
	"math/rand/v2"

	"kubeloop/api"
)

// watchList gets the initial state from a single WATCH with
// sendInitialEvents=true: ADDED events for every object, then a BOOKMARK
// annotated k8s.io/initial-events-end. It replaces the store with what it
// collected and returns the still-open watch for the live events.
func (r *Reflector) watchList(ctx context.Context) (api.Watcher, error) {
	send := true
	timeout := int64(minWatchTimeout.Seconds() * (1 + rand.Float64()))
	rv := r.LastSyncResourceVersion()
	w, err := r.lw.Watch(ctx, api.ListOptions{
		Watch:                true,
		ResourceVersion:      rv,
		ResourceVersionMatch: "NotOlderThan",
		SendInitialEvents:    &send,
		AllowWatchBookmarks:  true,
		TimeoutSeconds:       &timeout,
	})
	if err != nil {
		return nil, err
	}
	var items []any
	for {
		select {
		case <-ctx.Done():
			w.Stop()
			return nil, ctx.Err()
		case ev, ok := <-w.ResultChan():
			if !ok {
				return nil, fmt.Errorf("watch-list %s: stream ended before the initial events did", r.name)
			}
			switch ev.Type {
			case api.Added:
				items = append(items, ev.Object)
			case api.Bookmark:
				meta := ev.Object.GetObjectMeta()
				if meta.Annotations[api.InitialEventsAnnotation] != "true" {
					continue
				}
				if err := r.store.Replace(items, meta.ResourceVersion); err != nil {
					w.Stop()
					return nil, err
				}
				r.setLastSyncResourceVersion(meta.ResourceVersion)
				return w, nil
			case api.Error:
				w.Stop()
				if s, ok := ev.Object.(*api.Status); ok {
					return nil, &api.StatusError{ErrStatus: *s}
				}
				return nil, fmt.Errorf("watch-list %s: error event", r.name)
			default:
				w.Stop()
				return nil, fmt.Errorf("watch-list %s: unexpected %s during initial events", r.name, ev.Type)
			}
		}
	}
}
