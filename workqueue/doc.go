// Package workqueue is the tempo of a reconciler (spine arrows 3 to 4,
// reading-path step 6): a queue of keys that coalesces repeated adds, hands
// each key to one worker at a time and retries failures after a delay.
//
//	informer handlers ──Add(key)──▶ workqueue ──Get──▶ workers ──▶ syncHandler(key)
//	                                    ▲                              │
//	                                    └── AddRateLimited on error ◀──┘  (Forget on success)
//
// A key added ten times before a worker gets to it is processed once; a key
// added while a worker has it is processed again after Done, never by two
// workers at once. So reconcilers can be level-triggered: the queue says
// "look at this object again", never "this is what happened". Three layers
// wrap each other: Typed (queue.go: a FIFO, a dirty set, a processing set),
// the delaying queue (delaying_queue.go: AddAfter, a min-heap, a goroutine
// that adds items when due) and the rate-limiting queue
// (rate_limiting_queue.go: the delay comes from default_rate_limiters.go).
//
// Kubernetes counterpart, client-go v0.37.2, staging/src/k8s.io/client-go/util/workqueue:
// queue.go (Typed: Add, Get, Done), delaying_queue.go (AddAfter, waitingLoop),
// rate_limiting_queue.go (AddRateLimited), default_rate_limiters.go
// (DefaultTypedControllerRateLimiter) and metrics.go (MetricsProvider).
//
// We simplify: only the typed API, no pluggable Queue store, no injected
// DelayingQueue; no global metrics provider (one in the config, nil records
// nothing); AddAfter inserts into the heap itself instead of sending to the
// loop over a channel, and there is no 10 s heartbeat (it papered over missed
// wake-ups); Done of an item not being processed is a no-op; no Parallelizer.
// Clock is an interface so package clocktest can move time by hand. fifo.go
// (a ring), metrics*.go and trace.go can wait for a second reading.
package workqueue
