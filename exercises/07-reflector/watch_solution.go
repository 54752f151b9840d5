//go:build solution

package listwatch

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"kubeloop/api"
)

// watchLoop re-opens the watch for as long as the server can serve it from
// the version we have. client-go asks for a random timeout between 5 and
// 10 minutes so that the watches of many clients do not all end, and all
// come back, at the same moment.
func (r *Reflector) watchLoop(ctx context.Context) error {
	for ctx.Err() == nil {
		timeout := int64(300 + rand.IntN(300))
		w, err := r.lw.Watch(ctx, api.ListOptions{
			Watch:               true,
			ResourceVersion:     r.LastSyncResourceVersion(),
			AllowWatchBookmarks: true,
			TimeoutSeconds:      &timeout,
		})
		if err != nil {
			if api.IsExpired(err) {
				return nil // too old: list again
			}
			return fmt.Errorf("watch %s: %w", r.name, err)
		}
		if err := r.handleWatch(ctx, w); err != nil {
			if api.IsExpired(err) {
				return nil
			}
			return err
		}
		// The stream ended normally: watch again from where we are.
	}
	return nil
}

// handleWatch records each event's version only after the store has the
// event: a version is a promise that everything up to it is in the store.
func (r *Reflector) handleWatch(ctx context.Context, w api.Watcher) error {
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.ResultChan():
			if !ok {
				return nil
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
			case api.Error:
				if s, ok := ev.Object.(*api.Status); ok {
					return &api.StatusError{ErrStatus: *s}
				}
				return fmt.Errorf("watch %s: error event with %T", r.name, ev.Object)
			default:
				return errors.New("watch " + r.name + ": unknown event type " + string(ev.Type))
			}
			if err != nil {
				return fmt.Errorf("store %s: %w", r.name, err)
			}
			if rv := ev.Object.GetObjectMeta().ResourceVersion; rv != "" {
				r.setLastSyncResourceVersion(rv)
			}
		}
	}
}
