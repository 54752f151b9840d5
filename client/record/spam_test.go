package record

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubeloop/api"
)

func eventAbout(component, name string) *api.Event {
	return &api.Event{
		Source:         api.EventSource{Component: component},
		InvolvedObject: api.ObjectReference{Kind: "ReplicaSet", Namespace: "default", Name: name, UID: "uid-" + name},
	}
}

// The bucket's arithmetic, on a clock the test moves: 25 at once, then one
// per five minutes, per source and object.
func TestSpamFilterRefillsOnePerFiveMinutes(t *testing.T) {
	f := newSpamFilter()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	web := eventAbout("replicaset-controller", "web")
	for i := range spamBurst {
		assert.True(t, f.allow(web, t0), "event %d of the burst", i+1)
	}
	assert.False(t, f.allow(web, t0), "the 26th at once is dropped")
	assert.False(t, f.allow(web, t0.Add(spamRefill-time.Second)), "no token before five minutes")
	assert.True(t, f.allow(web, t0.Add(spamRefill)), "one token after five minutes")
	assert.False(t, f.allow(web, t0.Add(spamRefill)))

	assert.True(t, f.allow(eventAbout("replicaset-controller", "api"), t0), "another object has its own bucket")
	assert.True(t, f.allow(eventAbout("garbage-collector", "web"), t0), "another source has its own bucket")
}

func TestSpamFilterForgetsTheOldestBucketWhenFull(t *testing.T) {
	f := newSpamFilter()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	first := eventAbout("c", "first")
	for range spamBurst {
		f.allow(first, t0)
	}
	assert.False(t, f.allow(first, t0))
	for i := range maxSeen {
		f.allow(eventAbout("c", fmt.Sprint(i)), t0)
	}
	assert.Len(t, f.buckets, maxSeen, "memory stays bounded")
	assert.True(t, f.allow(first, t0), "a forgotten bucket starts full again")
}
