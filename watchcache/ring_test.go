package watchcache

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func ringEvent(rv uint64, at time.Time) *watchCacheEvent {
	return &watchCacheEvent{Type: api.Modified, ResourceVersion: rv, RecordTime: at}
}

func TestRingGrowsWhileOldestEventIsFresh(t *testing.T) {
	r := newEventRing(0)
	now := time.Now()
	for rv := uint64(1); rv <= 250; rv++ {
		r.add(ringEvent(rv, now), now)
	}
	require.Equal(t, 400, r.capacity(), "100 → 200 → 400")
	require.Equal(t, 250, r.len())
	require.False(t, r.evicted)
	require.Equal(t, uint64(1), r.at(0).ResourceVersion)
}

func TestRingEvictsOnceOldestEventIsStale(t *testing.T) {
	r := newEventRing(0)
	old := time.Now().Add(-2 * eventFreshDuration)
	for rv := uint64(1); rv <= 100; rv++ {
		r.add(ringEvent(rv, old), old)
	}
	r.add(ringEvent(101, time.Now()), time.Now())
	require.Equal(t, 100, r.capacity(), "a stale oldest event means no growth")
	require.True(t, r.evicted)
	require.Equal(t, uint64(2), r.at(0).ResourceVersion)
}

func TestRingGrowthStopsAtUpperBound(t *testing.T) {
	r := newEventRing(0)
	r.upperBound = 200
	now := time.Now()
	for rv := uint64(1); rv <= 300; rv++ {
		r.add(ringEvent(rv, now), now)
	}
	require.Equal(t, 200, r.capacity())
	require.Equal(t, uint64(101), r.at(0).ResourceVersion)
}

func TestRingWithFixedCapacityNeverGrows(t *testing.T) {
	r := newEventRing(3)
	now := time.Now()
	for rv := uint64(1); rv <= 5; rv++ {
		r.add(ringEvent(rv, now), now)
	}
	require.Equal(t, 3, r.capacity())
	got := r.since(0)
	require.Len(t, got, 3)
	require.Equal(t, uint64(3), got[0].ResourceVersion)
}

func TestRingSinceReturnsEventsAfterRV(t *testing.T) {
	r := newEventRing(10)
	now := time.Now()
	for _, rv := range []uint64{5, 7, 9, 12} {
		r.add(ringEvent(rv, now), now)
	}
	var rvs []uint64
	for _, ev := range r.since(7) {
		rvs = append(rvs, ev.ResourceVersion)
	}
	require.Equal(t, []uint64{9, 12}, rvs)
	require.Empty(t, r.since(12))
}

func TestEventsSinceTooOldIsExpiredWithOldestServable(t *testing.T) {
	info, _ := api.Builtin().ForResource("", "configmaps")
	w := newWatchCache(info, 2)
	w.replace(nil, 10)
	_, err := w.eventsSince(9)
	require.True(t, api.IsExpired(err))
	require.Equal(t, "too old resource version: 9 (10)", err.Error())

	for _, rv := range []uint64{11, 12, 13} {
		w.processEvent(api.Added, configMap("ns", "o"+rvString(rv), nil), rv, time.Now())
	}
	// The ring kept 12 and 13: a watch can start at 11, not before.
	evs, err := w.eventsSince(11)
	require.NoError(t, err)
	require.Len(t, evs, 2)
	_, err = w.eventsSince(10)
	require.Equal(t, "too old resource version: 10 (11)", err.Error())
}
