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

// podWorkers gives each pod a worker, so pods never wait for each other
// and one pod's syncs never overlap. Kubernetes: pkg/kubelet/pod_workers.go,
// podWorkers.UpdatePod and podWorkerLoop; the termination states
// (terminating, terminated) are reduced to "deleting" and "removed".
//
// Kubernetes' worker goroutine lives as long as its pod. Ours runs only
// while its pod has something to sync and the next update, PLEG event or
// timer starts another: a goroutine is cheap, but a thousand simulated
// nodes with 30 pods each kept 30 000 of them parked, each with a stack
// grown by its last sync (docs/performance.md, session 7).
type podWorkers struct {
	syncPod   func(ctx context.Context, pod *api.Pod, w *podWorker) (syncResult, error)
	removePod func(ctx context.Context, pod *api.Pod)
	log       *slog.Logger

	ctx context.Context
	wg  sync.WaitGroup

	mu sync.Mutex
	// stopped is set by wait before it waits: no goroutine starts after
	// it (a WaitGroup's Add from zero must not race with its Wait, and a
	// timer may fire while the kubelet stops).
	stopped bool
	// workers maps a pod UID to its worker; a worker is in the map from its
	// pod's first update until its goroutine has cleaned up after removal.
	workers map[string]*podWorker
}

// podWorker is the state of one pod's worker. pod, removed, pending and
// running are guarded by podWorkers.mu; the rest belongs to the worker's
// goroutine of the moment (there is at most one, and each starts under mu
// after the previous one ended under it).
type podWorker struct {
	pod     *api.Pod
	removed bool
	// pending: an update or wake-up arrived that no sync has read yet.
	// Several collapse into one more sync, which reads the latest pod
	// anyway. running: the goroutine exists; it ends when it finds nothing
	// pending.
	pending, running bool

	timer    *time.Timer
	failures int
	// lastStatus is the status this worker last wrote (status manager
	// cache), so a lagging informer does not cause the same write twice.
	// Once the informer's pod has it, it points into that pod's status
	// (read-only): an equal status is not held twice.
	lastStatus *api.PodStatus
	// written is the pod as the last status write returned it; it is
	// newer than the informer's copy until the informer catches up, and
	// dropped then (setPodStatus).
	written *api.Pod
	// backOffEvents remembers, per container, the exit already announced
	// by a BackOff event; nil until the first.
	backOffEvents map[string]time.Time
}

func newPodWorkers(syncPod func(context.Context, *api.Pod, *podWorker) (syncResult, error), removePod func(context.Context, *api.Pod), log *slog.Logger) *podWorkers {
	return &podWorkers{syncPod: syncPod, removePod: removePod, log: log, workers: map[string]*podWorker{}}
}

// start sets the context the workers run under.
func (p *podWorkers) start(ctx context.Context) {
	p.mu.Lock()
	p.ctx, p.stopped = ctx, false
	p.mu.Unlock()
}

// wait blocks until every worker goroutine has returned (after ctx ends),
// then stops the timers of the idle ones.
func (p *podWorkers) wait() {
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.workers {
		if w.timer != nil {
			w.timer.Stop()
		}
	}
}

// UpdatePod records the latest pod and has its worker sync it.
func (p *podWorkers) UpdatePod(pod *api.Pod) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ctx == nil || p.ctx.Err() != nil {
		return
	}
	w, ok := p.workers[pod.UID]
	if !ok {
		w = &podWorker{}
		p.workers[pod.UID] = w
	}
	if w.removed {
		return
	}
	w.pod = pod
	p.signalLocked(pod.UID, w)
}

// RemovePod tells the pod's worker that the pod is gone from the API; it
// makes a worker if there is none, to clean up what the runtime holds.
func (p *podWorkers) RemovePod(pod *api.Pod) {
	p.UpdatePod(pod)
	p.mu.Lock()
	defer p.mu.Unlock()
	if w, ok := p.workers[pod.UID]; ok {
		w.removed = true
		p.signalLocked(pod.UID, w)
	}
}

// wake has the worker of uid sync again, reporting whether there is one.
func (p *podWorkers) wake(uid string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	w, ok := p.workers[uid]
	if ok {
		p.signalLocked(uid, w)
	}
	return ok
}

// signalLocked marks w as having something to sync and starts its
// goroutine if it has none (and the kubelet is not stopping).
func (p *podWorkers) signalLocked(uid string, w *podWorker) {
	w.pending = true
	if w.running || p.stopped || p.ctx.Err() != nil {
		return
	}
	w.running = true
	p.wg.Add(1)
	go p.run(uid, w)
}

// run is the worker's goroutine: sync while something is pending, clean
// up once the pod is removed.
func (p *podWorkers) run(uid string, w *podWorker) {
	defer p.wg.Done()
	ctx := p.ctx
	for {
		p.mu.Lock()
		if !w.pending || ctx.Err() != nil {
			w.running = false
			p.mu.Unlock()
			return
		}
		w.pending = false
		pod, removed := w.pod, w.removed
		p.mu.Unlock()
		if removed {
			if w.timer != nil {
				w.timer.Stop()
			}
			p.removePod(ctx, pod)
			p.mu.Lock()
			delete(p.workers, uid) // running stays set: nothing starts it again
			p.mu.Unlock()
			return
		}
		res, err := p.syncPod(ctx, pod, w)
		switch {
		case err != nil && ctx.Err() == nil:
			// Kubernetes requeues a failed sync after a jittered backoff;
			// doubling from 100 ms to 10 s is enough here.
			w.failures++
			delay := min(100*time.Millisecond<<min(w.failures, 7), 10*time.Second)
			p.log.Warn("pod sync failed", "pod", pod.Namespace+"/"+pod.Name, "err", err, "retryIn", delay)
			p.wakeAfter(uid, w, delay)
		case res.again:
			w.failures = 0
			p.mu.Lock()
			w.pending = true
			p.mu.Unlock()
		case res.after > 0:
			w.failures = 0
			p.wakeAfter(uid, w, res.after)
		default:
			w.failures = 0
		}
	}
}

// wakeAfter arms the worker's one timer; a later call replaces an earlier.
// A timer that fires after its worker is gone does nothing.
func (p *podWorkers) wakeAfter(uid string, w *podWorker, d time.Duration) {
	if w.timer == nil {
		w.timer = time.AfterFunc(d, func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			if p.workers[uid] == w {
				p.signalLocked(uid, w)
			}
		})
		return
	}
	w.timer.Reset(d)
}
