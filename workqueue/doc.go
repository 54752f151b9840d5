// Package workqueue is the tempo of a reconciler: a queue of keys
// ("namespace/name") that coalesces repeated adds, hands each key to one
// worker at a time, and retries failures after a rate-limited delay.
//
// Where it sits on the spine: between spine arrows 3 and 4, reading-path
// step 6 (docs/reading-path.md).
//
//	informer event handlers ──Add(key)──▶ workqueue ──Get──▶ workers ──▶ syncHandler(key)
//	                                          ▲                              │
//	                                          └── AddRateLimited on error ◀──┘  (Forget on success)
//
// A key added ten times before a worker gets to it is processed once; a key
// added while a worker has it is processed again after Done, never by two
// workers at once. That is why reconcilers can be level-triggered: the queue
// only says "look at this object again", never "this is what happened".
//
// The three layers, each wrapping the one before:
//   - Typed (queue.go): a FIFO plus a dirty set (needs work) plus a
//     processing set (a worker has it).
//   - the delaying queue (delaying_queue.go): AddAfter, a min-heap of items
//     waiting for their time, and one goroutine that adds them when due.
//   - the rate-limiting queue (rate_limiting_queue.go): AddRateLimited asks a
//     TypedRateLimiter (default_rate_limiters.go) for the delay; Forget and
//     NumRequeues pass through to it.
//
// Metrics (metrics.go, metrics_prometheus.go) carry client-go's names
// (workqueue_depth, workqueue_adds_total, ...) and are recorded only for a
// named queue given a MetricsProvider.
//
// Kubernetes counterpart, client-go v0.37.2, staging/src/k8s.io/client-go/util/workqueue:
// queue.go (TypedInterface, Typed, NewTyped, NewTypedWithConfig),
// delaying_queue.go (TypedDelayingInterface, NewTypedDelayingQueue, waitingLoop),
// rate_limiting_queue.go (TypedRateLimitingInterface, NewTypedRateLimitingQueue),
// default_rate_limiters.go (TypedItemExponentialFailureRateLimiter,
// TypedItemFastSlowRateLimiter, TypedMaxOfRateLimiter, TypedBucketRateLimiter,
// DefaultTypedControllerRateLimiter) and metrics.go (MetricsProvider). The
// Prometheus provider mirrors k8s.io/component-base/metrics/prometheus/workqueue.
//
// What we simplify or do differently:
//   - Only the typed API: no untyped Interface, no deprecated New/NewNamed
//     constructors, no pluggable Queue backing store (TypedQueueConfig.Queue)
//     and no injected DelayingQueue in the rate-limiting config.
//   - No global metrics provider (workqueue.SetProvider): a provider is passed
//     in the config, and nil records nothing.
//   - The FIFO is a ring buffer; AddAfter inserts into the heap itself instead
//     of sending each entry to the loop goroutine over a channel, and there is
//     no 10 s heartbeat, which existed to paper over missed wake-ups.
//   - Done for an item that is not being processed is a no-op.
//   - No Parallelizer, no WithMaxWait limiter.
//   - The clock is a three-method interface (Clock); package clocktest has a
//     fake one so tests of delays move time by hand instead of sleeping.
package workqueue
