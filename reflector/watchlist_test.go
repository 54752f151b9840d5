package reflector

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// initialEvents is the start of a watch-list stream: ADDED for a, then the
// bookmark that ends the initial events at rv.
func initialEvents(rv int) []api.WatchEvent {
	end := cm("", rv)
	end.Annotations = map[string]string{api.InitialEventsAnnotation: "true"}
	return []api.WatchEvent{
		{Type: api.Added, Object: cm("a", rv-1)},
		{Type: api.Bookmark, Object: end},
	}
}

func TestWatchListResyncsWhileTheFirstStreamIsOpen(t *testing.T) {
	// The stream stays open for the whole test: client-go resyncs from the
	// moment the initial events are in (watchWithResync), not from the end
	// of the first stream.
	lw := &fakeLW{
		watchFn: func(api.ListOptions) (api.Watcher, error) { return newChanWatcher(initialEvents(40)...), nil },
	}
	s := &recordingStore{}
	r := NewReflector("configmaps", lw, s, 20*time.Millisecond)
	r.UseWatchList = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	require.Eventually(t, func() bool {
		calls := s.snapshot()
		return len(calls) >= 3 && calls[1] == "resync" && calls[2] == "resync"
	}, 10*time.Second, 5*time.Millisecond, "a replace, then resyncs")
	require.Equal(t, "replace:a,@40", s.snapshot()[0])
	require.Len(t, lw.recorded(), 1, "one stream, still open")
}

func TestWatchListExpiredEventStartsAgainWithoutBackoff(t *testing.T) {
	status := expired().(*api.StatusError).Status()
	first := newChanWatcher(append(initialEvents(40), api.WatchEvent{Type: api.Error, Object: &status})...)
	streams := 0
	lw := &fakeLW{
		watchFn: func(api.ListOptions) (api.Watcher, error) {
			streams++
			if streams == 1 {
				return first, nil
			}
			return newChanWatcher(initialEvents(50)...), nil
		},
	}
	s := &recordingStore{}
	r := NewReflector("configmaps", lw, s, 0)
	r.UseWatchList = true
	// A back-off would outlast the test: only an immediate restart passes.
	r.BackoffInitial, r.BackoffCap = time.Hour, time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	require.Eventually(t, func() bool { return r.LastSyncResourceVersion() == "50" }, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, []string{"replace:a,@40", "replace:a,@50"}, s.snapshot())
	second := lw.recorded()[1]
	require.NotNil(t, second.SendInitialEvents, "the state comes again from a watch-list")
}

func TestWatchListRefusedIsTriedAgainAtTheNextRelist(t *testing.T) {
	// client-go falls back to a LIST for this ListAndWatch only: once a 410
	// ends the watch, the relist asks for the stream again.
	status := expired().(*api.StatusError).Status()
	watches := 0
	lw := &fakeLW{
		listFn: func(api.ListOptions) (api.ListObject, error) { return cmList(10, "", cm("a", 9)), nil },
		watchFn: func(o api.ListOptions) (api.Watcher, error) {
			if o.SendInitialEvents != nil {
				return nil, api.NewInvalid("", "ListOptions", "", []api.StatusCause{{Type: api.CauseTypeFieldValueForbidden, Field: "sendInitialEvents"}})
			}
			if watches++; watches == 1 {
				return newChanWatcher(api.WatchEvent{Type: api.Error, Object: &status}), nil
			}
			return newChanWatcher(), nil
		},
	}
	s := &recordingStore{}
	r := NewReflector("configmaps", lw, s, 0)
	r.UseWatchList = true
	r.BackoffInitial, r.BackoffCap = time.Hour, time.Hour // only an immediate relist passes
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	require.Eventually(t, func() bool { return len(lw.recorded()) >= 6 }, 10*time.Second, 5*time.Millisecond)
	var verbs []string
	for _, o := range lw.recorded()[:6] {
		switch {
		case o.SendInitialEvents != nil:
			verbs = append(verbs, "watchlist")
		case o.Watch:
			verbs = append(verbs, "watch")
		default:
			verbs = append(verbs, "list")
		}
	}
	require.Equal(t, []string{"watchlist", "list", "watch", "watchlist", "list", "watch"}, verbs)
}
