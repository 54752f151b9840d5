package record

import (
	"sync"
	"time"

	"golang.org/x/time/rate"

	"kubeloop/api"
)

// Kubernetes' defaults (client-go tools/record/events_cache.go): a source may
// report 25 events about one object at once, then one more every five
// minutes.
const (
	spamBurst  = 25
	spamRefill = 5 * time.Minute
)

// spamFilter limits how many events one source reports about one object: a
// token bucket per (source, object), which client-go calls
// EventSourceObjectSpamFilter. Without it a ReplicaSet scaled to 1000 would
// get 1000 SuccessfulCreate events, each a write; with it, `kubectl
// describe` still shows the first 25, and the writes go to the pods.
//
// Events about different objects never compete: each pod has its own
// bucket, so Scheduled, Created and Started are always written.
type spamFilter struct {
	mu      sync.Mutex
	buckets map[string]*rate.Limiter
	// order holds the keys oldest first; past maxSeen the oldest bucket is
	// forgotten (client-go keeps an LRU of the same size), which refills it.
	order []string
}

func newSpamFilter() *spamFilter {
	return &spamFilter{buckets: map[string]*rate.Limiter{}}
}

// allow takes a token for ev's source and object at now, or says the event
// is to be dropped.
func (f *spamFilter) allow(ev *api.Event, now time.Time) bool {
	key := spamKey(ev)
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.buckets[key]
	if !ok {
		if len(f.order) >= maxSeen {
			delete(f.buckets, f.order[0])
			f.order = f.order[1:]
		}
		b = rate.NewLimiter(rate.Every(spamRefill), spamBurst)
		f.buckets[key] = b
		f.order = append(f.order, key)
	}
	return b.AllowN(now, 1)
}

// spamKey is the source and the object, but not the reason or message: a
// flood of different events about one object is still a flood.
func spamKey(ev *api.Event) string {
	o := ev.InvolvedObject
	return ev.Source.Component + "\x00" + ev.Source.Host + "\x00" + o.Kind + "\x00" + o.Namespace + "\x00" +
		o.Name + "\x00" + o.UID + "\x00" + o.APIVersion
}
