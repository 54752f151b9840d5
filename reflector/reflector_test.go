package reflector

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func expired() error { return api.NewResourceExpired("too old resource version: 5 (10)") }

func TestFirstListAsksForResourceVersionZeroThenWatchesFromListRV(t *testing.T) {
	w := newChanWatcher(api.WatchEvent{Type: api.Added, Object: cm("b", 11)})
	lw := &fakeLW{
		listFn:  func(api.ListOptions) (api.ListObject, error) { return cmList(10, "", cm("a", 9)), nil },
		watchFn: func(api.ListOptions) (api.Watcher, error) { return w, nil },
	}
	s := &recordingStore{}
	r := NewReflector("configmaps", lw, s, 0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)

	require.Eventually(t, func() bool { return len(s.snapshot()) == 2 }, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, []string{"replace:a,@10", "add:b@11"}, s.snapshot())
	reqs := lw.recorded()
	require.Equal(t, "0", reqs[0].ResourceVersion)
	require.EqualValues(t, 500, reqs[0].Limit)
	require.True(t, reqs[1].Watch)
	require.Equal(t, "10", reqs[1].ResourceVersion)
	require.True(t, reqs[1].AllowWatchBookmarks)
	require.NotNil(t, reqs[1].TimeoutSeconds)
	require.GreaterOrEqual(t, *reqs[1].TimeoutSeconds, int64(300))
	require.Less(t, *reqs[1].TimeoutSeconds, int64(600))
	require.Equal(t, "11", r.LastSyncResourceVersion())
}

func TestListFollowsContinueTokensWithoutResourceVersion(t *testing.T) {
	lw := &fakeLW{
		listFn: func(o api.ListOptions) (api.ListObject, error) {
			if o.Continue == "" {
				return cmList(20, "tok", cm("a", 1)), nil
			}
			return cmList(20, "", cm("b", 2)), nil
		},
	}
	s := &recordingStore{}
	r := NewReflector("configmaps", lw, s, 0)
	require.NoError(t, r.list(context.Background()))
	require.Equal(t, []string{"replace:a,b,@20"}, s.snapshot())
	reqs := lw.recorded()
	require.Len(t, reqs, 2)
	require.Equal(t, "tok", reqs[1].Continue)
	require.Empty(t, reqs[1].ResourceVersion)
}

func TestExpiredListRelistsAtOnceWithConsistentRead(t *testing.T) {
	lw := &fakeLW{
		listFn: func(o api.ListOptions) (api.ListObject, error) {
			if o.ResourceVersion == "15" {
				return nil, expired()
			}
			return cmList(30, "", cm("a", 29)), nil
		},
	}
	s := &recordingStore{}
	r := NewReflector("configmaps", lw, s, 0)
	r.setLastSyncResourceVersion("15")
	require.NoError(t, r.list(context.Background()))
	reqs := lw.recorded()
	require.Equal(t, []string{"15", ""}, []string{reqs[0].ResourceVersion, reqs[1].ResourceVersion})
	require.Equal(t, "30", r.LastSyncResourceVersion())
	require.Equal(t, "30", r.relistResourceVersion(), "a successful list makes the version usable again")
}

func TestNormalWatchEndRewatchesFromLastRVWithoutRelist(t *testing.T) {
	first := newChanWatcher(
		api.WatchEvent{Type: api.Modified, Object: cm("a", 12)},
		api.WatchEvent{Type: api.Bookmark, Object: cm("", 13)},
	)
	second := newChanWatcher()
	watches := 0
	lw := &fakeLW{
		listFn: func(api.ListOptions) (api.ListObject, error) { return cmList(10, "", cm("a", 9)), nil },
		watchFn: func(o api.ListOptions) (api.Watcher, error) {
			watches++
			if watches == 1 {
				return first, nil
			}
			return second, nil
		},
	}
	s := &recordingStore{}
	r := NewReflector("configmaps", lw, s, 0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	require.Eventually(t, func() bool { return r.LastSyncResourceVersion() == "13" }, 10*time.Second, 5*time.Millisecond)
	first.close()
	require.Eventually(t, func() bool { return len(lw.recorded()) == 3 }, 10*time.Second, 5*time.Millisecond)
	reqs := lw.recorded()
	require.True(t, reqs[2].Watch, "the next request is a watch, not a list")
	require.Equal(t, "13", reqs[2].ResourceVersion, "a bookmark moves the resume point")
	require.Equal(t, []string{"replace:a,@10", "update:a@12"}, s.snapshot(), "a bookmark reaches no store")
}

func TestErrorExpiredEventRelistsFromLastRV(t *testing.T) {
	status := expired().(*api.StatusError).Status()
	w := newChanWatcher(
		api.WatchEvent{Type: api.Added, Object: cm("b", 11)},
		api.WatchEvent{Type: api.Error, Object: &status},
	)
	lists := 0
	lw := &fakeLW{
		listFn: func(api.ListOptions) (api.ListObject, error) {
			lists++
			return cmList(10+lists, "", cm("a", 9)), nil
		},
		watchFn: func(o api.ListOptions) (api.Watcher, error) {
			if o.ResourceVersion == "11" && lists == 1 {
				return w, nil
			}
			return newChanWatcher(), nil
		},
	}
	s := &recordingStore{}
	r := NewReflector("configmaps", lw, s, 0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	require.Eventually(t, func() bool {
		for _, o := range lw.recorded() {
			if !o.Watch && o.ResourceVersion == "11" {
				return true
			}
		}
		return false
	}, 10*time.Second, 5*time.Millisecond, "the re-list asks for the last synced version")
}

func TestShortEmptyWatchIsAnError(t *testing.T) {
	w := newChanWatcher()
	w.close()
	r := NewReflector("configmaps", &fakeLW{}, &recordingStore{}, 0)
	err := r.handleWatch(context.Background(), w)
	require.True(t, errors.Is(err, errShortWatch))
}

func TestResyncCallsStoreEveryPeriod(t *testing.T) {
	lw := &fakeLW{
		listFn:  func(api.ListOptions) (api.ListObject, error) { return cmList(10, ""), nil },
		watchFn: func(api.ListOptions) (api.Watcher, error) { return newChanWatcher(), nil },
	}
	s := &recordingStore{}
	r := NewReflector("configmaps", lw, s, 20*time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	require.Eventually(t, func() bool {
		n := 0
		for _, c := range s.snapshot() {
			if c == "resync" {
				n++
			}
		}
		return n >= 3
	}, 10*time.Second, 5*time.Millisecond)
}

func TestWatchListReplacesAtInitialEventsEndBookmark(t *testing.T) {
	end := cm("", 40)
	end.Annotations = map[string]string{api.InitialEventsAnnotation: "true"}
	w := newChanWatcher(
		api.WatchEvent{Type: api.Added, Object: cm("a", 30)},
		api.WatchEvent{Type: api.Added, Object: cm("b", 35)},
		api.WatchEvent{Type: api.Bookmark, Object: end},
		api.WatchEvent{Type: api.Modified, Object: cm("a", 41)},
	)
	lw := &fakeLW{
		listFn:  func(api.ListOptions) (api.ListObject, error) { return nil, errors.New("no list expected") },
		watchFn: func(api.ListOptions) (api.Watcher, error) { return w, nil },
	}
	s := &recordingStore{}
	r := NewReflector("configmaps", lw, s, 0)
	r.UseWatchList = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	require.Eventually(t, func() bool { return len(s.snapshot()) == 2 }, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, []string{"replace:a,b,@40", "update:a@41"}, s.snapshot())
	req := lw.recorded()[0]
	require.NotNil(t, req.SendInitialEvents)
	require.True(t, *req.SendInitialEvents)
	require.Equal(t, "NotOlderThan", req.ResourceVersionMatch)
}

func TestWatchListRejectedFallsBackToList(t *testing.T) {
	lw := &fakeLW{
		listFn: func(api.ListOptions) (api.ListObject, error) { return cmList(10, "", cm("a", 9)), nil },
		watchFn: func(o api.ListOptions) (api.Watcher, error) {
			if o.SendInitialEvents != nil {
				return nil, api.NewInvalid("", "ListOptions", "", []api.StatusCause{{Type: api.CauseTypeFieldValueForbidden, Field: "sendInitialEvents"}})
			}
			return newChanWatcher(), nil
		},
	}
	s := &recordingStore{}
	r := NewReflector("configmaps", lw, s, 0)
	r.UseWatchList = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	require.Eventually(t, func() bool { return len(s.snapshot()) == 1 }, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, []string{"replace:a,@10"}, s.snapshot())
}

func TestBackoffDoublesWithJitterAndResetsAfterQuiet(t *testing.T) {
	b := &Backoff{Initial: 800 * time.Millisecond, Cap: 30 * time.Second, ResetAfter: 2 * time.Minute}
	now := time.Unix(0, 0)
	bases := []time.Duration{800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond}
	for _, base := range bases {
		d := b.Next(now)
		require.GreaterOrEqual(t, d, base)
		require.Less(t, d, 2*base)
		now = now.Add(time.Second)
	}
	for i := 0; i < 10; i++ {
		b.Next(now)
	}
	d := b.Next(now)
	require.GreaterOrEqual(t, d, 30*time.Second)
	require.Less(t, d, 60*time.Second, "capped at 30 s before jitter")
	d = b.Next(now.Add(3 * time.Minute))
	require.Less(t, d, 1600*time.Millisecond, "two quiet minutes reset the backoff")
}
