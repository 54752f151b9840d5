package watchcache

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"kubeloop/api"
	"kubeloop/reflector"
	"kubeloop/store"
)

// run keeps the cache in step with etcd: list, then watch from the list's
// revision; when the watch ends, watch again from the cache's revision;
// when that is impossible (410 after a compaction, or any other failure),
// list again. Kubernetes runs a client-go Reflector here (cacher.go:
// startCaching); ours is that loop, inlined, with the reflector's Backoff
// started shorter (etcd is in-process or next door, not across a network).
func (c *Cacher) run(ctx context.Context) {
	b := &reflector.Backoff{Initial: 100 * time.Millisecond, Cap: 5 * time.Second, ResetAfter: 2 * time.Minute}
	for ctx.Err() == nil {
		err := c.listAndWatch(ctx)
		if ctx.Err() != nil {
			return
		}
		wait := b.Next(time.Now())
		c.log.Warn("watch cache lost etcd, re-listing", "err", err, "backoff", wait)
		c.mu.Lock()
		c.setReadyLocked(false)
		c.terminateAllWatchersLocked()
		c.mu.Unlock()
		if !sleep(ctx, wait) {
			return
		}
	}
}

func (c *Cacher) listAndWatch(ctx context.Context) error {
	list, err := c.storage.List(ctx, c.prefix, store.ListOptions{ResourceVersion: ""})
	if err != nil {
		return fmt.Errorf("list %s: %w", c.prefix, err)
	}
	c.replace(list.Items, list.ResourceVersion)
	for {
		opened := time.Now()
		err := c.watchFrom(ctx, c.resourceVersion())
		if err != nil {
			return err
		}
		// A clean end (the store closed the stream): resume where we are,
		// without a re-list, so watchers stay open. Pause if the stream
		// ended at once, so a broken store is not hammered.
		if time.Since(opened) < time.Second && !sleep(ctx, time.Second) {
			return ctx.Err()
		}
	}
}

// watchFrom follows the underlying watch until it ends (nil) or fails.
func (c *Cacher) watchFrom(ctx context.Context, rv uint64) error {
	w, err := c.storage.Watch(ctx, c.prefix, store.ListOptions{
		ResourceVersion:     strconv.FormatUint(rv, 10),
		AllowWatchBookmarks: true,
	})
	if err != nil {
		return fmt.Errorf("watch %s from %d: %w", c.prefix, rv, err)
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev, ok := <-w.ResultChan():
			if !ok {
				return nil
			}
			if err := c.handleEvent(ev); err != nil {
				return err
			}
		}
	}
}

func (c *Cacher) handleEvent(ev api.WatchEvent) error {
	if ev.Type == api.Error {
		if st, ok := ev.Object.(*api.Status); ok {
			return &api.StatusError{ErrStatus: *st}
		}
		return errors.New("watch error event without a Status")
	}
	if ev.Object == nil {
		return fmt.Errorf("%s event without an object", ev.Type)
	}
	rv, err := strconv.ParseUint(ev.Object.GetObjectMeta().ResourceVersion, 10, 64)
	if err != nil {
		return fmt.Errorf("%s event with bad resourceVersion %q: %w", ev.Type, ev.Object.GetObjectMeta().ResourceVersion, err)
	}
	switch ev.Type {
	case api.Bookmark:
		c.advance(rv)
	case api.Added, api.Modified, api.Deleted:
		c.processEvent(ev.Type, ev.Object, rv)
	default:
		return fmt.Errorf("unknown watch event type %q", ev.Type)
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
