package workqueue

// TypedRateLimitingInterface is a delaying queue whose delays come from a
// rate limiter: the queue a controller uses.
type TypedRateLimitingInterface[T comparable] interface {
	TypedDelayingInterface[T]
	AddRateLimited(item T) // AddAfter the delay the rate limiter asks for
	Forget(item T)         // item succeeded: reset its backoff (not its place in the queue, nor a pending delay)
	NumRequeues(item T) int
}

// TypedRateLimitingQueueConfig is a plain queue's (client-go's also takes a DelayingQueue).
type TypedRateLimitingQueueConfig[T comparable] = TypedQueueConfig[T]

// NewTypedRateLimitingQueue returns an unnamed rate-limiting queue.
func NewTypedRateLimitingQueue[T comparable](rateLimiter TypedRateLimiter[T]) TypedRateLimitingInterface[T] {
	return NewTypedRateLimitingQueueWithConfig(rateLimiter, TypedRateLimitingQueueConfig[T]{})
}

func NewTypedRateLimitingQueueWithConfig[T comparable](rateLimiter TypedRateLimiter[T], config TypedRateLimitingQueueConfig[T]) TypedRateLimitingInterface[T] {
	return &rateLimitingType[T]{delayingType: NewTypedDelayingQueueWithConfig(config).(*delayingType[T]), rateLimiter: rateLimiter}
}

type rateLimitingType[T comparable] struct {
	*delayingType[T]
	rateLimiter TypedRateLimiter[T]
}

func (q *rateLimitingType[T]) AddRateLimited(item T)  { q.AddAfter(item, q.rateLimiter.When(item)) }
func (q *rateLimitingType[T]) NumRequeues(item T) int { return q.rateLimiter.NumRequeues(item) }
func (q *rateLimitingType[T]) Forget(item T)          { q.rateLimiter.Forget(item) }
