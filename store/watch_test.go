package store_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

// next waits for one event; the deadline is generous, the test never sleeps.
func next(t *testing.T, w api.Watcher) api.WatchEvent {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		require.True(t, ok, "watch closed early")
		return ev
	case <-time.After(20 * time.Second):
		require.FailNow(t, "no watch event within 20s")
	}
	return api.WatchEvent{}
}

// summary renders an event as "TYPE name@rv" for readable assertions.
func summary(t *testing.T, ev api.WatchEvent) string {
	return fmt.Sprintf("%s %s@%d", ev.Type, ev.Object.GetObjectMeta().Name, rvOf(t, ev.Object))
}

func TestWatchFromRevisionSeesLaterChangesInOrder(t *testing.T) {
	f := newFixture(t)
	a := f.create("a", nil)
	from := a.ResourceVersion

	updated, err := f.store.GuaranteedUpdate(f.ctx, f.key("a"), nil, increment0, nil)
	require.NoError(t, err)
	b := f.create("b", nil)
	deleted, err := f.store.Delete(f.ctx, f.key("a"), nil, nil, nil)
	require.NoError(t, err)

	w, err := f.store.Watch(f.ctx, f.prefix(), store.ListOptions{ResourceVersion: from})
	require.NoError(t, err)
	defer w.Stop()

	want := []string{
		fmt.Sprintf("MODIFIED a@%d", rvOf(t, updated)),
		fmt.Sprintf("ADDED b@%d", rvOf(t, b)),
		fmt.Sprintf("DELETED a@%d", rvOf(t, deleted)),
	}
	var got []string
	var last api.WatchEvent
	for range want {
		last = next(t, w)
		got = append(got, summary(t, last))
	}
	assert.Equal(t, want, got)
	assert.Equal(t, "1", last.Object.(*api.ConfigMap).Data["n"], "DELETED carries the last state")
	assert.Equal(t, "ConfigMap", last.Object.GetTypeMeta().Kind)

	c := f.create("c", nil)
	assert.Equal(t, fmt.Sprintf("ADDED c@%d", rvOf(t, c)), summary(t, next(t, w)), "the watch keeps going live")
}

func TestWatchFromZeroStartsWithCurrentObjects(t *testing.T) {
	f := newFixture(t)
	a := f.create("a", nil)
	b := f.create("b", nil)

	w, err := f.store.Watch(f.ctx, f.prefix(), store.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	defer w.Stop()
	assert.Equal(t, fmt.Sprintf("ADDED a@%d", rvOf(t, a)), summary(t, next(t, w)))
	assert.Equal(t, fmt.Sprintf("ADDED b@%d", rvOf(t, b)), summary(t, next(t, w)))

	c := f.create("c", nil)
	assert.Equal(t, fmt.Sprintf("ADDED c@%d", rvOf(t, c)), summary(t, next(t, w)))
}

func TestWatchWithInitialEventsEndsThemWithBookmark(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	rv := f.currentRV()
	yes := true
	w, err := f.store.Watch(f.ctx, f.prefix(), store.ListOptions{SendInitialEvents: &yes, AllowWatchBookmarks: true})
	require.NoError(t, err)
	defer w.Stop()
	assert.Equal(t, api.Added, next(t, w).Type)
	bm := next(t, w)
	require.Equal(t, api.Bookmark, bm.Type)
	assert.Equal(t, "true", bm.Object.GetObjectMeta().Annotations[api.InitialEventsAnnotation])
	assert.Equal(t, rv, rvOf(t, bm.Object))
}

func TestWatchFilterTurnsLeavingIntoDeletedAndEnteringIntoAdded(t *testing.T) {
	f := newFixture(t)
	from := strconv.FormatInt(f.currentRV(), 10)
	sel, err := api.ParseSelector("app=web")
	require.NoError(t, err)
	w, err := f.store.Watch(f.ctx, f.prefix(), store.ListOptions{ResourceVersion: from, Predicate: store.SelectionPredicate{Label: sel}})
	require.NoError(t, err)
	defer w.Stop()

	setApp := func(app string) api.Object {
		out, err := f.store.GuaranteedUpdate(f.ctx, f.key("x"), nil, func(obj api.Object) (api.Object, error) {
			obj.GetObjectMeta().Labels["app"] = app
			return obj, nil
		}, nil)
		require.NoError(t, err)
		return out
	}
	f.create("other", map[string]string{"app": "db"})
	x := f.create("x", map[string]string{"app": "web"})
	toDB := setApp("db")
	setApp("cache") // outside the filter before and after: no event
	toWeb := setApp("web")
	stillWeb, err := f.store.GuaranteedUpdate(f.ctx, f.key("x"), nil, increment0, nil)
	require.NoError(t, err)
	gone, err := f.store.Delete(f.ctx, f.key("x"), nil, nil, nil)
	require.NoError(t, err)

	want := []string{
		fmt.Sprintf("ADDED x@%d", rvOf(t, x)),
		fmt.Sprintf("DELETED x@%d", rvOf(t, toDB)),
		fmt.Sprintf("ADDED x@%d", rvOf(t, toWeb)),
		fmt.Sprintf("MODIFIED x@%d", rvOf(t, stillWeb)),
		fmt.Sprintf("DELETED x@%d", rvOf(t, gone)),
	}
	var got []string
	var events []api.WatchEvent
	for range want {
		ev := next(t, w)
		events = append(events, ev)
		got = append(got, summary(t, ev))
	}
	assert.Equal(t, want, got)
	assert.Equal(t, "web", events[1].Object.GetObjectMeta().Labels["app"],
		"leaving the filter carries the last state that matched")
}

func TestWatchFromCompactedRevisionIsExpired(t *testing.T) {
	f := newFixture(t)
	a := f.create("a", nil)
	f.create("b", nil)
	f.create("c", nil)
	require.NoError(t, store.Compact(f.ctx, f.client(), f.currentRV()))

	_, err := f.store.Watch(f.ctx, f.prefix(), store.ListOptions{ResourceVersion: a.ResourceVersion})
	require.True(t, api.IsExpired(err), "got %v", err)
	assert.Equal(t, "The resourceVersion for the provided watch is too old.", err.Error())

	// The newest compacted revision itself is still a valid starting point:
	// the watch needs only the revisions after it.
	w, err := f.store.Watch(f.ctx, f.prefix(), store.ListOptions{ResourceVersion: strconv.FormatInt(f.currentRV(), 10)})
	require.NoError(t, err)
	w.Stop()
}

func TestWatchFromFutureRevisionWaitsForIt(t *testing.T) {
	f := newFixture(t)
	from := f.currentRV() + 2 // the revision of the second create below
	w, err := f.store.Watch(f.ctx, f.prefix(), store.ListOptions{ResourceVersion: strconv.FormatInt(from, 10)})
	require.NoError(t, err)
	defer w.Stop()
	f.create("a", nil)
	f.create("b", nil)
	c := f.create("c", nil)
	assert.Equal(t, fmt.Sprintf("ADDED c@%d", rvOf(t, c)), summary(t, next(t, w)))
}

func TestWatchStopIsIdempotentAndClosesChannelWithFullBuffer(t *testing.T) {
	f := newFixture(t)
	for i := range 150 { // more than the watch buffers, so the producer blocks
		f.create(fmt.Sprintf("obj-%03d", i), nil)
	}
	w, err := f.store.Watch(f.ctx, f.prefix(), store.ListOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(w.ResultChan()) == cap(w.ResultChan()) }, 20*time.Second, 10*time.Millisecond)

	w.Stop()
	w.Stop()
	drained := 0
	for range w.ResultChan() {
		drained++
	}
	assert.Less(t, drained, 150, "the producer stopped instead of delivering everything")
}

func TestWatchEndsWhenContextIsCancelled(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(f.ctx)
	w, err := f.store.Watch(ctx, f.prefix(), store.ListOptions{})
	require.NoError(t, err)
	cancel()
	select {
	case _, ok := <-w.ResultChan():
		assert.False(t, ok, "no event was written, so the channel must just close")
	case <-time.After(20 * time.Second):
		require.FailNow(t, "watch did not end after its context was cancelled")
	}
	w.Stop()
}

func TestRequestWatchProgressSendsBookmarkAtCurrentRevision(t *testing.T) {
	f := newFixture(t)
	w, err := f.store.Watch(f.ctx, f.prefix(), store.ListOptions{ResourceVersion: strconv.FormatInt(f.currentRV(), 10), AllowWatchBookmarks: true})
	require.NoError(t, err)
	defer w.Stop()

	// A write outside the watched prefix moves etcd's revision without an
	// event on this watch: only a progress notification can tell the
	// watcher it is current.
	_, err = f.client().Put(f.ctx, "/elsewhere/"+f.ns, "x")
	require.NoError(t, err)
	target := f.currentRV()

	require.Eventually(t, func() bool {
		require.NoError(t, f.store.RequestWatchProgress(f.ctx))
		select {
		case ev := <-w.ResultChan():
			require.Equal(t, api.Bookmark, ev.Type)
			return rvOf(t, ev.Object) >= target
		case <-time.After(200 * time.Millisecond):
			return false
		}
	}, 20*time.Second, time.Millisecond)
}
