package kubelet

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"kubeloop/api"
)

// syncResult tells a pod worker what to do after one sync.
type syncResult struct {
	// again: the sync changed the runtime, so sync at once to report it
	// (the status is computed before the actions, as Kubernetes' SyncPod
	// does).
	again bool
	// after, when positive, wakes the worker then (a back-off ending).
	after time.Duration
}

// podWorkers runs one goroutine per pod, so pods never wait for each other
// and one pod's syncs never overlap. Kubernetes: pkg/kubelet/pod_workers.go,
// podWorkers.UpdatePod and podWorkerLoop; the termination states
// (terminating, terminated) are reduced to "deleting" and "removed".
type podWorkers struct {
	syncPod   func(ctx context.Context, pod *api.Pod, w *podWorker) (syncResult, error)
	removePod func(ctx context.Context, pod *api.Pod)
	log       *slog.Logger

	ctx context.Context
	wg  sync.WaitGroup

	mu sync.Mutex
	// workers maps a pod UID to its worker; a worker is in the map from its
	// pod's first update until its goroutine has cleaned up after removal.
	workers map[string]*podWorker
}

// podWorker is the state of one pod's goroutine. pod and removed are
// guarded by podWorkers.mu; the rest belongs to the goroutine.
type podWorker struct {
	pod     *api.Pod
	removed bool
	// wakeCh has room for one signal: signals sent while the worker is busy
	// collapse into one more sync, which reads the latest pod anyway.
	wakeCh chan struct{}

	timer *time.Timer
	// lastStatus is the status this worker last wrote (status manager
	// cache), so a lagging informer does not cause the same write twice.
	lastStatus *api.PodStatus
	// written is the pod as the last status write returned it; it is
	// newer than the informer's copy until the informer catches up.
	written *api.Pod
	// backOffEvents remembers, per container, the exit already announced
	// by a BackOff event.
	backOffEvents map[string]time.Time
}

func newPodWorkers(syncPod func(context.Context, *api.Pod, *podWorker) (syncResult, error), removePod func(context.Context, *api.Pod), log *slog.Logger) *podWorkers {
	return &podWorkers{syncPod: syncPod, removePod: removePod, log: log, workers: map[string]*podWorker{}}
}

// start sets the context the workers run under.
func (p *podWorkers) start(ctx context.Context) {
	p.mu.Lock()
	p.ctx = ctx
	p.mu.Unlock()
}

// wait blocks until every worker goroutine has returned (after ctx ends).
func (p *podWorkers) wait() { p.wg.Wait() }

// UpdatePod records the latest pod and wakes (or starts) its worker.
func (p *podWorkers) UpdatePod(pod *api.Pod) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ctx == nil || p.ctx.Err() != nil {
		return
	}
	w, ok := p.workers[pod.UID]
	if !ok {
		w = &podWorker{wakeCh: make(chan struct{}, 1), backOffEvents: map[string]time.Time{}}
		p.workers[pod.UID] = w
		p.wg.Add(1)
		go p.run(pod.UID, w)
	}
	if w.removed {
		return
	}
	w.pod = pod
	signal(w.wakeCh)
}

// RemovePod tells the pod's worker that the pod is gone from the API; it
// starts a worker if there is none, to clean up what the runtime holds.
func (p *podWorkers) RemovePod(pod *api.Pod) {
	p.UpdatePod(pod)
	p.mu.Lock()
	defer p.mu.Unlock()
	if w, ok := p.workers[pod.UID]; ok {
		w.removed = true
		signal(w.wakeCh)
	}
}

// wake signals the worker of uid, reporting whether there is one.
func (p *podWorkers) wake(uid string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	w, ok := p.workers[uid]
	if ok {
		signal(w.wakeCh)
	}
	return ok
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// run is one pod's goroutine: sync on every signal until the pod is removed.
func (p *podWorkers) run(uid string, w *podWorker) {
	defer p.wg.Done()
	ctx := p.ctx
	defer func() {
		if w.timer != nil {
			w.timer.Stop()
		}
	}()
	failures := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.wakeCh:
		}
		p.mu.Lock()
		pod, removed := w.pod, w.removed
		p.mu.Unlock()
		if removed {
			p.removePod(ctx, pod)
			p.mu.Lock()
			delete(p.workers, uid)
			p.mu.Unlock()
			return
		}
		res, err := p.syncPod(ctx, pod, w)
		switch {
		case err != nil && ctx.Err() == nil:
			// Kubernetes requeues a failed sync after a jittered backoff;
			// doubling from 100 ms to 10 s is enough here.
			failures++
			delay := min(100*time.Millisecond<<min(failures, 7), 10*time.Second)
			p.log.Warn("pod sync failed", "pod", pod.Namespace+"/"+pod.Name, "err", err, "retryIn", delay)
			w.wakeAfter(delay)
		case res.again:
			failures = 0
			signal(w.wakeCh)
		case res.after > 0:
			failures = 0
			w.wakeAfter(res.after)
		default:
			failures = 0
		}
	}
}

// wakeAfter arms the worker's one timer; a later call replaces an earlier.
func (w *podWorker) wakeAfter(d time.Duration) {
	if w.timer == nil {
		w.timer = time.AfterFunc(d, func() { signal(w.wakeCh) })
		return
	}
	w.timer.Reset(d)
}
