package kubelet

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestPodWorkerGoroutineEndsWhenIdleAndTheNextUpdateStartsOne(t *testing.T) {
	var syncs, removals atomic.Int32
	p := newPodWorkers(func(context.Context, *api.Pod, *podWorker) (syncResult, error) {
		syncs.Add(1)
		return syncResult{}, nil
	}, func(context.Context, *api.Pod) { removals.Add(1) }, slog.Default())
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); p.wait() }()
	p.start(ctx)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "p", UID: "u1"}}

	running := func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		w, ok := p.workers["u1"]
		return ok && w.running
	}
	p.UpdatePod(pod)
	require.Eventually(t, func() bool { return syncs.Load() >= 1 && !running() }, 10*time.Second, time.Millisecond,
		"the worker syncs, finds nothing pending and its goroutine ends")

	before := syncs.Load()
	require.True(t, p.wake("u1"), "an idle pod still has its worker")
	require.Eventually(t, func() bool { return syncs.Load() > before && !running() }, 10*time.Second, time.Millisecond,
		"a wake-up starts a goroutine for one more sync")

	p.RemovePod(pod)
	require.Eventually(t, func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		_, ok := p.workers["u1"]
		return removals.Load() == 1 && !ok
	}, 10*time.Second, time.Millisecond, "removal cleans up and forgets the worker")
}

func TestPodWorkerTimerWakesAnIdleWorker(t *testing.T) {
	var syncs atomic.Int32
	p := newPodWorkers(func(context.Context, *api.Pod, *podWorker) (syncResult, error) {
		if syncs.Add(1) == 1 {
			return syncResult{after: 10 * time.Millisecond}, nil // a back-off ending
		}
		return syncResult{}, nil
	}, func(context.Context, *api.Pod) {}, slog.Default())
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); p.wait() }()
	p.start(ctx)
	p.UpdatePod(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "p", UID: "u1"}})
	require.Eventually(t, func() bool { return syncs.Load() >= 2 }, 10*time.Second, time.Millisecond,
		"the timer starts a goroutine for the sync it asked for")
}
