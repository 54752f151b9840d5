package workqueue

// TypedRateLimitingInterface is a delaying queue whose delays come from a
// rate limiter: the queue a controller uses.
type TypedRateLimitingInterface[T comparable] interface {
	TypedDelayingInterface[T]
	// AddRateLimited adds item after the delay the rate limiter asks for.
	AddRateLimited(item T)
	// Forget tells the rate limiter item succeeded, resetting its backoff.
	// It does not remove item from the queue or cancel a pending delay.
	Forget(item T)
	// NumRequeues is how many times the rate limiter has delayed item.
	NumRequeues(item T) int
}

// TypedRateLimitingQueueConfig customises a rate-limiting queue. client-go
// also accepts a ready-made DelayingQueue; we always build our own.
type TypedRateLimitingQueueConfig[T comparable] struct {
	Name            string
	MetricsProvider MetricsProvider
	Clock           Clock
}

// NewTypedRateLimitingQueue returns an unnamed rate-limiting queue.
func NewTypedRateLimitingQueue[T comparable](rateLimiter TypedRateLimiter[T]) TypedRateLimitingInterface[T] {
	return NewTypedRateLimitingQueueWithConfig(rateLimiter, TypedRateLimitingQueueConfig[T]{})
}

// NewTypedRateLimitingQueueWithConfig returns a rate-limiting queue
// customised by config.
func NewTypedRateLimitingQueueWithConfig[T comparable](rateLimiter TypedRateLimiter[T], config TypedRateLimitingQueueConfig[T]) TypedRateLimitingInterface[T] {
	return &rateLimitingType[T]{
		delayingType: newDelayingQueue(TypedDelayingQueueConfig[T]{
			Name: config.Name, MetricsProvider: config.MetricsProvider, Clock: config.Clock,
		}),
		rateLimiter: rateLimiter,
	}
}

type rateLimitingType[T comparable] struct {
	*delayingType[T]
	rateLimiter TypedRateLimiter[T]
}

func (q *rateLimitingType[T]) AddRateLimited(item T) {
	q.AddAfter(item, q.rateLimiter.When(item))
}

func (q *rateLimitingType[T]) NumRequeues(item T) int {
	return q.rateLimiter.NumRequeues(item)
}

func (q *rateLimitingType[T]) Forget(item T) {
	q.rateLimiter.Forget(item)
}
