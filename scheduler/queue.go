package scheduler

import (
	"errors"
	"reflect"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/scheduler/framework"
	"kubeloop/workqueue"
)

// errQueueClosed is what Pop returns once the queue is closed.
var errQueueClosed = errors.New("scheduling queue is closed")

// Kubernetes' defaults (pkg/scheduler/backend/queue/scheduling_queue.go).
const (
	// DefaultPodInitialBackoff is the backoff after a pod's first failure;
	// it doubles with each further attempt.
	DefaultPodInitialBackoff = 1 * time.Second
	// DefaultPodMaxBackoff caps the backoff.
	DefaultPodMaxBackoff = 10 * time.Second
	// podMaxInUnschedulablePodsDuration is how long a pod waits in the
	// unschedulable set without any event before it is retried anyway, in
	// case an event that would have helped was missed.
	podMaxInUnschedulablePodsDuration = 5 * time.Minute
	// unschedulableFlushPeriod is how often that is checked.
	unschedulableFlushPeriod = 30 * time.Second
)

// QueuedPodInfo is a pending pod and its scheduling history.
type QueuedPodInfo struct {
	*framework.PodInfo
	// Timestamp is when the pod last entered the queue: the FIFO order of
	// activeQ, and the start of its backoff after a failure.
	Timestamp time.Time
	// InitialAttemptTimestamp is when the pod was first popped.
	InitialAttemptTimestamp time.Time
	// Attempts counts the scheduling attempts; the backoff doubles with it.
	Attempts int
	// UnschedulablePlugins named the plugins that rejected the pod last time.
	UnschedulablePlugins map[string]bool

	key string
	seq uint64 // tie-break for equal timestamps: enqueue order
	// cycle is the scheduling cycle of the last Pop.
	cycle int64
	// updatedInFlight is set when the pod's spec or metadata changed while
	// it was being scheduled, so its failure may be stale.
	updatedInFlight bool
}

// SchedulingQueue holds the pods waiting for a node. Kubernetes:
// pkg/scheduler/backend/queue/scheduling_queue.go, PriorityQueue.
//
// Every pending pod this scheduler is responsible for is in exactly one of:
//   - activeQ: ready to be tried, FIFO by Timestamp (Kubernetes orders by
//     priority first; kubeloop pods have none);
//   - backoffQ: failed recently, waits until its backoff expires;
//   - unschedulablePods: no node fit; waits for a cluster event (node added
//     or changed, assigned pod deleted) that might make one fit;
//   - inFlight: popped, being scheduled or bound.
type SchedulingQueue struct {
	clock          workqueue.Clock
	initialBackoff time.Duration
	maxBackoff     time.Duration

	mu                sync.Mutex
	cond              *sync.Cond
	activeQ           *podHeap
	backoffQ          *podHeap
	unschedulablePods map[string]*QueuedPodInfo
	inFlight          map[string]*QueuedPodInfo

	// schedulingCycle counts Pops; moveRequestCycle is the cycle of the last
	// cluster event. A pod that fails in a cycle at or before the last
	// move request may have missed the event that would let it fit, so it
	// goes to backoffQ instead of waiting in unschedulablePods.
	schedulingCycle  int64
	moveRequestCycle int64
	seq              uint64
	closed           bool

	unschedulableDepth workqueue.GaugeMetric
}

func newSchedulingQueue(clock workqueue.Clock, initialBackoff, maxBackoff time.Duration, metrics workqueue.MetricsProvider) *SchedulingQueue {
	var activeDepth, backoffDepth, unschedDepth workqueue.GaugeMetric = noopGauge{}, noopGauge{}, noopGauge{}
	if metrics != nil {
		activeDepth = metrics.NewDepthMetric("scheduler_active")
		backoffDepth = metrics.NewDepthMetric("scheduler_backoff")
		unschedDepth = metrics.NewDepthMetric("scheduler_unschedulable")
	}
	q := &SchedulingQueue{
		clock:          clock,
		initialBackoff: initialBackoff,
		maxBackoff:     maxBackoff,
		activeQ: newPodHeap(func(a, b *QueuedPodInfo) bool {
			if !a.Timestamp.Equal(b.Timestamp) {
				return a.Timestamp.Before(b.Timestamp)
			}
			return a.seq < b.seq
		}, activeDepth),
		unschedulablePods:  map[string]*QueuedPodInfo{},
		inFlight:           map[string]*QueuedPodInfo{},
		unschedulableDepth: unschedDepth,
	}
	q.backoffQ = newPodHeap(func(a, b *QueuedPodInfo) bool {
		return q.backoffExpiry(a).Before(q.backoffExpiry(b))
	}, backoffDepth)
	q.cond = sync.NewCond(&q.mu)
	return q
}

func podKey(pod *api.Pod) string { return pod.Namespace + "/" + pod.Name }

func (q *SchedulingQueue) newQueuedPodInfo(pod *api.Pod) *QueuedPodInfo {
	q.seq++
	return &QueuedPodInfo{PodInfo: framework.NewPodInfo(pod), Timestamp: q.clock.Now(), key: podKey(pod), seq: q.seq}
}

// Add queues a new pending pod in activeQ.
func (q *SchedulingQueue) Add(pod *api.Pod) {
	q.mu.Lock()
	defer q.mu.Unlock()
	key := podKey(pod)
	if q.updateExisting(key, pod) {
		return
	}
	q.activeQ.AddOrUpdate(q.newQueuedPodInfo(pod))
	q.cond.Broadcast()
}

// Update records a newer version of a pending pod. A pod waiting in
// unschedulablePods is retried if its spec or metadata changed (a new
// toleration may let it fit); a status-only change, such as our own
// PodScheduled=False write, leaves it where it is.
func (q *SchedulingQueue) Update(oldPod, newPod *api.Pod) {
	q.mu.Lock()
	defer q.mu.Unlock()
	key := podKey(newPod)
	if p, ok := q.unschedulablePods[key]; ok {
		p.PodInfo = framework.NewPodInfo(newPod)
		if oldPod == nil || isPodUpdated(oldPod, newPod) {
			q.deleteUnschedulable(key)
			q.requeue(p)
		}
		return
	}
	if q.updateExisting(key, newPod) {
		if p, ok := q.inFlight[key]; ok && (oldPod == nil || isPodUpdated(oldPod, newPod)) {
			p.updatedInFlight = true
		}
		return
	}
	q.activeQ.AddOrUpdate(q.newQueuedPodInfo(newPod))
	q.cond.Broadcast()
}

// updateExisting replaces the pod of an entry in activeQ, backoffQ or
// inFlight, keeping its place and history.
func (q *SchedulingQueue) updateExisting(key string, pod *api.Pod) bool {
	if p, ok := q.activeQ.Get(key); ok {
		p.PodInfo = framework.NewPodInfo(pod)
		return true
	}
	if p, ok := q.backoffQ.Get(key); ok {
		p.PodInfo = framework.NewPodInfo(pod)
		return true
	}
	if p, ok := q.inFlight[key]; ok {
		p.PodInfo = framework.NewPodInfo(pod)
		return true
	}
	if p, ok := q.unschedulablePods[key]; ok {
		p.PodInfo = framework.NewPodInfo(pod)
		return true
	}
	return false
}

// Delete forgets a pod: deleted, bound, or handed to another scheduler.
func (q *SchedulingQueue) Delete(pod *api.Pod) {
	q.mu.Lock()
	defer q.mu.Unlock()
	key := podKey(pod)
	q.activeQ.Delete(key)
	q.backoffQ.Delete(key)
	q.deleteUnschedulable(key)
	delete(q.inFlight, key)
}

// Pop blocks until a pod is in activeQ, and hands it out as in flight. It
// returns errQueueClosed once Close is called.
func (q *SchedulingQueue) Pop() (*QueuedPodInfo, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.activeQ.Len() == 0 && !q.closed {
		q.cond.Wait()
	}
	if q.closed {
		return nil, errQueueClosed
	}
	p, _ := q.activeQ.PopMin()
	q.schedulingCycle++
	p.cycle = q.schedulingCycle
	p.Attempts++
	if p.InitialAttemptTimestamp.IsZero() {
		p.InitialAttemptTimestamp = q.clock.Now()
	}
	p.updatedInFlight = false
	q.inFlight[p.key] = p
	return p, nil
}

// SchedulingCycle is the number of Pops so far; a pod's failure is judged
// against the cycle it was popped in.
func (q *SchedulingQueue) SchedulingCycle() int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.schedulingCycle
}

// Done ends the in-flight state of a pod that was bound.
func (q *SchedulingQueue) Done(p *QueuedPodInfo) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if cur, ok := q.inFlight[p.key]; ok && cur == p {
		delete(q.inFlight, p.key)
	}
}

// AddUnschedulableIfNotPresent puts back a pod whose attempt in
// podSchedulingCycle failed. A pod that was deleted or bound meanwhile is
// no longer in flight and is dropped. An error (not a FitError), a pod
// changed while in flight, or a cluster event since the attempt began,
// sends it to backoffQ; otherwise it waits in unschedulablePods for an
// event.
func (q *SchedulingQueue) AddUnschedulableIfNotPresent(p *QueuedPodInfo, unschedulable bool, podSchedulingCycle int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if cur, ok := q.inFlight[p.key]; !ok || cur != p {
		return
	}
	delete(q.inFlight, p.key)
	p.Timestamp = q.clock.Now()
	if !unschedulable || p.updatedInFlight || q.moveRequestCycle >= podSchedulingCycle {
		q.backoffQ.AddOrUpdate(p)
		return
	}
	q.unschedulablePods[p.key] = p
	q.unschedulableDepth.Inc()
}

// MoveAllToActiveOrBackoffQueue retries every unschedulable pod after a
// cluster event that may make room: a node added or changed, an assigned
// pod deleted. Pods still in their backoff wait it out in backoffQ.
// Kubernetes filters by event and plugin (queueing hints); we move all.
func (q *SchedulingQueue) MoveAllToActiveOrBackoffQueue() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for key, p := range q.unschedulablePods {
		q.deleteUnschedulable(key)
		q.requeue(p)
	}
	q.moveRequestCycle = q.schedulingCycle
}

// requeue puts a pod that left unschedulablePods into backoffQ or activeQ.
func (q *SchedulingQueue) requeue(p *QueuedPodInfo) {
	if q.isPodBackingOff(p) {
		q.backoffQ.AddOrUpdate(p)
		return
	}
	q.activeQ.AddOrUpdate(p)
	q.cond.Broadcast()
}

func (q *SchedulingQueue) deleteUnschedulable(key string) {
	if _, ok := q.unschedulablePods[key]; ok {
		delete(q.unschedulablePods, key)
		q.unschedulableDepth.Dec()
	}
}

// backoffDuration doubles from initialBackoff with every attempt after
// the first, up to maxBackoff.
func (q *SchedulingQueue) backoffDuration(p *QueuedPodInfo) time.Duration {
	d := q.initialBackoff
	for i := 1; i < p.Attempts; i++ {
		if d > q.maxBackoff/2 {
			return q.maxBackoff
		}
		d *= 2
	}
	return min(d, q.maxBackoff)
}

func (q *SchedulingQueue) backoffExpiry(p *QueuedPodInfo) time.Time {
	return p.Timestamp.Add(q.backoffDuration(p))
}

func (q *SchedulingQueue) isPodBackingOff(p *QueuedPodInfo) bool {
	return q.backoffExpiry(p).After(q.clock.Now())
}

// flushBackoffQCompleted moves the pods whose backoff has expired to
// activeQ.
func (q *SchedulingQueue) flushBackoffQCompleted() {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.clock.Now()
	moved := false
	for {
		p, ok := q.backoffQ.Peek()
		if !ok || q.backoffExpiry(p).After(now) {
			break
		}
		q.backoffQ.PopMin()
		q.activeQ.AddOrUpdate(p)
		moved = true
	}
	if moved {
		q.cond.Broadcast()
	}
}

// flushUnschedulablePodsLeftover retries pods that have waited for an
// event longer than podMaxInUnschedulablePodsDuration.
func (q *SchedulingQueue) flushUnschedulablePodsLeftover() {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.clock.Now()
	for key, p := range q.unschedulablePods {
		if now.Sub(p.Timestamp) > podMaxInUnschedulablePodsDuration {
			q.deleteUnschedulable(key)
			q.requeue(p)
		}
	}
}

// Run flushes backoffQ every min(1 s, initial backoff) — Kubernetes ticks
// every second; tests with short backoffs would wait needlessly — and the
// unschedulable leftovers every 30 s, until stop is closed.
func (q *SchedulingQueue) Run(stop <-chan struct{}) {
	period := min(time.Second, q.initialBackoff)
	timer := q.clock.NewTimer(period)
	defer timer.Stop()
	lastLeftover := q.clock.Now()
	for {
		select {
		case <-stop:
			return
		case <-timer.C():
		}
		q.flushBackoffQCompleted()
		if q.clock.Since(lastLeftover) >= unschedulableFlushPeriod {
			q.flushUnschedulablePodsLeftover()
			lastLeftover = q.clock.Now()
		}
		timer.Reset(period)
	}
}

// Close wakes Pop, which then returns errQueueClosed.
func (q *SchedulingQueue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.cond.Broadcast()
}

// PendingPods reports how many pods each part of the queue holds (tests,
// debugging; Kubernetes: PendingPods).
func (q *SchedulingQueue) PendingPods() (active, backoff, unschedulable, inFlight int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.activeQ.Len(), q.backoffQ.Len(), len(q.unschedulablePods), len(q.inFlight)
}

// isPodUpdated ignores what changes without changing schedulability:
// status and the server-set version fields.
func isPodUpdated(oldPod, newPod *api.Pod) bool {
	strip := func(p *api.Pod) *api.Pod {
		c := p.DeepCopy()
		c.ResourceVersion = ""
		c.Generation = 0
		c.Status = api.PodStatus{}
		return c
	}
	return !reflect.DeepEqual(strip(oldPod), strip(newPod))
}
