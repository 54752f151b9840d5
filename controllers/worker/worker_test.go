package worker

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/workqueue"
)

func newQueue() workqueue.TypedRateLimitingInterface[string] {
	return workqueue.NewTypedRateLimitingQueue(workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, 10*time.Millisecond))
}

// A key that fails is retried with backoff until it succeeds; then it is
// forgotten (no requeues counted) and the workers stop when ctx ends.
func TestLoopRetriesFailuresAndForgetsSuccesses(t *testing.T) {
	q := newQueue()
	var mu sync.Mutex
	calls := map[string]int{}
	done := make(chan struct{})
	l := &Loop{Log: slog.Default(), Queue: q, Sync: func(_ context.Context, key string) error {
		mu.Lock()
		defer mu.Unlock()
		calls[key]++
		if key == "flaky" && calls[key] < 3 {
			return errors.New("not yet")
		}
		if calls["flaky"] == 3 && calls["ok"] == 1 {
			close(done)
		}
		return nil
	}}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { l.Run(ctx, 2); close(stopped) }()
	q.Add("flaky")
	q.Add("ok")
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the flaky key was not retried to success")
	}
	assert.Equal(t, 0, q.NumRequeues("flaky"), "a key that synced is forgotten")
	cancel()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after ctx ended")
	}
	assert.True(t, q.ShuttingDown())
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, map[string]int{"flaky": 3, "ok": 1}, calls)
}

// No worker runs before the caches have synced, HandleErr replaces the
// default rule, and AlsoRun goroutines and AlsoShutDown queues end with Run.
func TestLoopWaitsForSyncAndRunsTheRest(t *testing.T) {
	q, other := newQueue(), newQueue()
	var synced atomic.Bool
	var syncedEarly atomic.Bool
	handled := make(chan error, 1)
	l := &Loop{Log: slog.Default(), Queue: q, Synced: []func() bool{synced.Load},
		Sync: func(context.Context, string) error {
			if !synced.Load() {
				syncedEarly.Store(true)
			}
			return errors.New("boom")
		},
		HandleErr:    func(_ context.Context, key string, err error) { handled <- err; q.Forget(key) },
		AlsoShutDown: []interface{ ShutDown() }{other},
	}
	alsoEnded := make(chan struct{})
	l.AlsoRun = []func(context.Context){func(ctx context.Context) { <-ctx.Done(); close(alsoEnded) }}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { l.Run(ctx, 1); close(stopped) }()
	q.Add("k")
	time.AfterFunc(50*time.Millisecond, func() { synced.Store(true) })
	select {
	case err := <-handled:
		require.EqualError(t, err, "boom")
	case <-time.After(10 * time.Second):
		t.Fatal("HandleErr was not called")
	}
	assert.False(t, syncedEarly.Load(), "a worker ran before the caches synced")
	assert.Equal(t, 0, q.NumRequeues("k"), "HandleErr decided, not the default AddRateLimited")
	cancel()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return")
	}
	<-alsoEnded
	assert.True(t, other.ShuttingDown())
}

// A sync cut short by shutdown is neither logged as a failure nor retried.
func TestLoopDropsASyncCutShortByShutdown(t *testing.T) {
	q := newQueue()
	ctx, cancel := context.WithCancel(context.Background())
	l := &Loop{Log: slog.Default(), Queue: q, Sync: func(context.Context, string) error {
		cancel()
		return context.Canceled
	}}
	q.Add("k")
	assert.True(t, l.ProcessNextWorkItem(ctx))
	assert.Equal(t, 0, q.NumRequeues("k"), "not AddRateLimited")
	assert.Equal(t, 0, q.Len())
	q.ShutDown()
	assert.False(t, l.ProcessNextWorkItem(ctx), "a shut-down queue ends the worker")
}
