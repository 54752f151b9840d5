package workqueue

// Skip on a first reading: the queue's metrics (client-go's metrics.go:
// depth, adds, latency, work duration, unfinished work, retries). The queue
// calls them at a few points; nothing else depends on them, and an unnamed
// queue (the usual one in tests) records nothing. Counted apart from the
// queue's lines by hack/linebudget.sh.

import "time"

// The metric shapes a MetricsProvider hands out. They are the subset of the
// Prometheus client types the queue calls, so any metrics library fits.
type (
	// GaugeMetric goes up and down (queue depth).
	GaugeMetric interface {
		Inc()
		Dec()
	}
	// SettableGaugeMetric is set to a computed value (unfinished work).
	SettableGaugeMetric interface {
		Set(float64)
	}
	// CounterMetric only goes up (adds, retries).
	CounterMetric interface {
		Inc()
	}
	// HistogramMetric records a distribution of seconds (latencies).
	HistogramMetric interface {
		Observe(float64)
	}
)

// MetricsProvider creates the metrics of one named queue. The names mirror
// client-go's MetricsProvider so either provider shape ports across.
type MetricsProvider interface {
	NewDepthMetric(name string) GaugeMetric
	NewAddsMetric(name string) CounterMetric
	NewLatencyMetric(name string) HistogramMetric
	NewWorkDurationMetric(name string) HistogramMetric
	NewUnfinishedWorkSecondsMetric(name string) SettableGaugeMetric
	NewLongestRunningProcessorSecondsMetric(name string) SettableGaugeMetric
	NewRetriesMetric(name string) CounterMetric
}

// defaultUnfinishedWorkUpdatePeriod is how often the two "how long have the
// workers been busy" gauges are recomputed; client-go uses the same 500 ms.
const defaultUnfinishedWorkUpdatePeriod = 500 * time.Millisecond

// queueMetrics is the bookkeeping behind a named queue's metrics. A nil
// *queueMetrics is valid and records nothing: unnamed queues (and queues
// without a provider) pay no clock reads and no map writes.
//
// It is only touched under the queue's lock.
type queueMetrics[T comparable] struct {
	clock Clock

	depth                   GaugeMetric
	adds                    CounterMetric
	latency                 HistogramMetric
	workDuration            HistogramMetric
	unfinishedWorkSeconds   SettableGaugeMetric
	longestRunningProcessor SettableGaugeMetric
	retries                 CounterMetric // nil but in a delaying queue

	// addTimes holds when each dirty item was first added, for the queue
	// latency sample taken when it is handed out.
	addTimes map[T]time.Time
	// processingStartTimes holds when each item being processed was handed
	// out, for the work duration and the unfinished-work gauges.
	processingStartTimes map[T]time.Time
}

// newQueueMetrics returns nil for an unnamed queue or a nil provider;
// otherwise it starts the goroutine that refreshes q's unfinished-work
// gauges.
func newQueueMetrics[T comparable](q *Typed[T], p MetricsProvider, name string, c Clock) *queueMetrics[T] {
	if p == nil || name == "" {
		return nil
	}
	m := &queueMetrics[T]{
		clock:                   c,
		depth:                   p.NewDepthMetric(name),
		adds:                    p.NewAddsMetric(name),
		latency:                 p.NewLatencyMetric(name),
		workDuration:            p.NewWorkDurationMetric(name),
		unfinishedWorkSeconds:   p.NewUnfinishedWorkSecondsMetric(name),
		longestRunningProcessor: p.NewLongestRunningProcessorSecondsMetric(name),
		addTimes:                map[T]time.Time{},
		processingStartTimes:    map[T]time.Time{},
	}
	q.wg.Add(1)
	go m.updateUnfinishedWorkLoop(q, defaultUnfinishedWorkUpdatePeriod)
	return m
}

// add is called when item newly becomes dirty. Like client-go, depth counts
// dirty items not yet handed out, so an item re-added while it is being
// processed counts even though it waits outside the FIFO until Done.
func (m *queueMetrics[T]) add(item T) {
	if m == nil {
		return
	}
	m.adds.Inc()
	m.depth.Inc()
	if _, ok := m.addTimes[item]; !ok {
		m.addTimes[item] = m.clock.Now()
	}
}

func (m *queueMetrics[T]) get(item T) {
	if m == nil {
		return
	}
	now := m.clock.Now()
	m.depth.Dec()
	m.processingStartTimes[item] = now
	if added, ok := m.addTimes[item]; ok {
		m.latency.Observe(now.Sub(added).Seconds())
		delete(m.addTimes, item)
	}
}

func (m *queueMetrics[T]) done(item T) {
	if m == nil {
		return
	}
	if started, ok := m.processingStartTimes[item]; ok {
		m.workDuration.Observe(m.clock.Since(started).Seconds())
		delete(m.processingStartTimes, item)
	}
}

// updateUnfinishedWork recomputes the gauges that reveal stuck workers: the
// total and the longest time items currently being processed have run.
func (m *queueMetrics[T]) updateUnfinishedWork() {
	now := m.clock.Now()
	var total, longest float64
	for _, started := range m.processingStartTimes {
		age := now.Sub(started).Seconds()
		total += age
		longest = max(longest, age)
	}
	m.unfinishedWorkSeconds.Set(total)
	m.longestRunningProcessor.Set(longest)
}

// newRetries adds the retries counter, which only delaying queues have.
func (m *queueMetrics[T]) newRetries(p MetricsProvider, name string) {
	if m != nil {
		m.retries = p.NewRetriesMetric(name)
	}
}

// retry counts an AddAfter. The counter is safe without the queue's lock.
func (m *queueMetrics[T]) retry() {
	if m != nil && m.retries != nil {
		m.retries.Inc()
	}
}

// updateUnfinishedWorkLoop refreshes the unfinished-work gauges on a period:
// they measure time passing while nothing happens, so no queue operation
// would otherwise update them.
func (m *queueMetrics[T]) updateUnfinishedWorkLoop(q *Typed[T], period time.Duration) {
	defer q.wg.Done()
	for {
		t := m.clock.NewTimer(period)
		select {
		case <-q.stopCh:
			t.Stop()
			return
		case <-t.C():
		}
		q.mu.Lock()
		if !q.shuttingDown {
			m.updateUnfinishedWork()
		}
		q.mu.Unlock()
	}
}
