package watchcache

import (
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Options tunes a Cacher. The zero value gives Kubernetes' defaults.
type Options struct {
	// EventBufferCapacity fixes the size of the ring of recent events.
	// Zero means Kubernetes' adaptive rule: start at 100 and double, up to
	// 100·1024, while the oldest event is younger than 75 s.
	EventBufferCapacity int
	// BookmarkInterval is how often watchers that allow bookmarks get one
	// (default 1 minute, as in Kubernetes).
	BookmarkInterval time.Duration
	// WatcherBufferSize is how many events a watcher may fall behind before
	// dispatch has to wait for it. Zero means Kubernetes' rule, from the
	// ring's capacity (watcher_buffer.go): 100, up to 1000 for a watch of
	// all pods or nodes.
	WatcherBufferSize int
	// DispatchTimeoutBudget is how long dispatch may wait in all for
	// watchers whose buffer is full before closing them; it refills at half
	// of itself per second (default 100 ms, Kubernetes' dispatch budget).
	// Negative: no waiting, a full buffer closes the watcher at once.
	DispatchTimeoutBudget time.Duration
	// FreshnessTimeout bounds how long a consistent read waits for the cache
	// to catch up with etcd (after asking for a progress notification)
	// before it is served by the underlying store instead (default 3 s,
	// Kubernetes' blockTimeout).
	FreshnessTimeout time.Duration
	// Registerer receives the cache's metrics; nil means a private registry
	// (see Cacher.Gatherer).
	Registerer prometheus.Registerer
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

// Kubernetes' ring sizing rule (watch_cache.go: defaultLowerBoundCapacity,
// defaultUpperBoundCapacity, eventFreshDuration).
const (
	defaultLowerBoundCapacity = 100
	defaultUpperBoundCapacity = 100 * 1024
	eventFreshDuration        = 75 * time.Second
)

func (o Options) withDefaults() Options {
	if o.BookmarkInterval <= 0 {
		o.BookmarkInterval = time.Minute
	}
	if o.DispatchTimeoutBudget == 0 {
		o.DispatchTimeoutBudget = 100 * time.Millisecond
	}
	if o.FreshnessTimeout <= 0 {
		o.FreshnessTimeout = 3 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}
