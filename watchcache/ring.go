package watchcache

import (
	"sort"
	"time"
)

// eventRing holds the most recent events in resourceVersion order. It is the
// watch cache's memory of the past: a watch from RV N replays the events
// after N from here, and fails with 410 once N has fallen out.
//
// Invariant: events[start%cap .. end%cap) are the stored events, oldest
// first; end-start <= len(buf). start and end only grow.
type eventRing struct {
	buf        []*watchCacheEvent
	start, end int
	// upperBound caps growth; equal to len(buf) when the size is fixed.
	upperBound int
	// evicted is true once an event has been dropped since the last reset:
	// only then is the oldest servable RV decided by the ring rather than by
	// the list the cache started from.
	evicted bool
}

func newEventRing(fixedCapacity int) eventRing {
	if fixedCapacity > 0 {
		return eventRing{buf: make([]*watchCacheEvent, fixedCapacity), upperBound: fixedCapacity}
	}
	return eventRing{buf: make([]*watchCacheEvent, defaultLowerBoundCapacity), upperBound: defaultUpperBoundCapacity}
}

func (r *eventRing) len() int      { return r.end - r.start }
func (r *eventRing) capacity() int { return len(r.buf) }

// at returns the i-th stored event, 0 being the oldest.
func (r *eventRing) at(i int) *watchCacheEvent { return r.buf[(r.start+i)%len(r.buf)] }

// add appends ev. When full, the ring doubles if its oldest event is still
// younger than eventFreshDuration (a burst: keep history long enough for
// watchers to catch up), else drops the oldest event.
func (r *eventRing) add(ev *watchCacheEvent, now time.Time) {
	if r.len() == len(r.buf) {
		if len(r.buf) < r.upperBound && now.Sub(r.at(0).RecordTime) < eventFreshDuration {
			r.grow(min(2*len(r.buf), r.upperBound))
		} else {
			r.buf[r.start%len(r.buf)] = nil
			r.start++
			r.evicted = true
		}
	}
	r.buf[r.end%len(r.buf)] = ev
	r.end++
}

func (r *eventRing) grow(capacity int) {
	n := r.len()
	buf := make([]*watchCacheEvent, capacity)
	for i := 0; i < n; i++ {
		buf[i] = r.at(i)
	}
	r.buf, r.start, r.end = buf, 0, n
}

// reset empties the ring after a re-list: nothing before it can be replayed.
func (r *eventRing) reset() {
	clear(r.buf)
	r.start, r.end, r.evicted = 0, 0, false
}

// since returns the stored events with resourceVersion > rv, oldest first.
func (r *eventRing) since(rv uint64) []*watchCacheEvent {
	n := r.len()
	first := sort.Search(n, func(i int) bool { return r.at(i).ResourceVersion > rv })
	out := make([]*watchCacheEvent, 0, n-first)
	for i := first; i < n; i++ {
		out = append(out, r.at(i))
	}
	return out
}
