package workqueue_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/workqueue"
	"kubeloop/workqueue/clocktest"
)

// recordingProvider is a MetricsProvider that keeps every value, so tests can
// read them. The queue calls metrics under its own lock, but tests read from
// another goroutine, hence mu.
type recordingProvider struct {
	mu      sync.Mutex
	created []string // "kind/name" for every metric created
	values  map[string]*recorded
}

type recorded struct {
	depth, adds, retries     float64
	unfinished, longest      float64
	latencies, workDurations []float64
}

func newRecordingProvider() *recordingProvider {
	return &recordingProvider{values: map[string]*recorded{}}
}

// snapshot returns a copy of the values recorded for queue name.
func (p *recordingProvider) snapshot(name string) recorded {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.values[name]
	if !ok {
		return recorded{}
	}
	c := *r
	c.latencies = append([]float64(nil), r.latencies...)
	c.workDurations = append([]float64(nil), r.workDurations...)
	return c
}

func (p *recordingProvider) createdCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.created)
}

// metric returns a recorder that applies f to the values of queue name.
func (p *recordingProvider) metric(kind, name string) recorderMetric {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.created = append(p.created, kind+"/"+name)
	if p.values[name] == nil {
		p.values[name] = &recorded{}
	}
	r := p.values[name]
	return recorderMetric{p: p, apply: func(op string, v float64) {
		switch kind + "." + op {
		case "depth.inc":
			r.depth++
		case "depth.dec":
			r.depth--
		case "adds.inc":
			r.adds++
		case "retries.inc":
			r.retries++
		case "latency.observe":
			r.latencies = append(r.latencies, v)
		case "work.observe":
			r.workDurations = append(r.workDurations, v)
		case "unfinished.set":
			r.unfinished = v
		case "longest.set":
			r.longest = v
		default:
			panic("unexpected metric call " + kind + "." + op)
		}
	}}
}

type recorderMetric struct {
	p     *recordingProvider
	apply func(op string, v float64)
}

func (m recorderMetric) do(op string, v float64) {
	m.p.mu.Lock()
	defer m.p.mu.Unlock()
	m.apply(op, v)
}

func (m recorderMetric) Inc()              { m.do("inc", 0) }
func (m recorderMetric) Dec()              { m.do("dec", 0) }
func (m recorderMetric) Set(v float64)     { m.do("set", v) }
func (m recorderMetric) Observe(v float64) { m.do("observe", v) }

func (p *recordingProvider) NewDepthMetric(n string) workqueue.GaugeMetric {
	return p.metric("depth", n)
}
func (p *recordingProvider) NewAddsMetric(n string) workqueue.CounterMetric {
	return p.metric("adds", n)
}
func (p *recordingProvider) NewLatencyMetric(n string) workqueue.HistogramMetric {
	return p.metric("latency", n)
}
func (p *recordingProvider) NewWorkDurationMetric(n string) workqueue.HistogramMetric {
	return p.metric("work", n)
}
func (p *recordingProvider) NewUnfinishedWorkSecondsMetric(n string) workqueue.SettableGaugeMetric {
	return p.metric("unfinished", n)
}
func (p *recordingProvider) NewLongestRunningProcessorSecondsMetric(n string) workqueue.SettableGaugeMetric {
	return p.metric("longest", n)
}
func (p *recordingProvider) NewRetriesMetric(n string) workqueue.CounterMetric {
	return p.metric("retries", n)
}

// Reference 13: adds/depth+1 when an item newly becomes dirty; depth−1 and a
// latency sample per Get; a work-duration sample per Done; retries+1 per AddAfter.
func TestMetricsCountAddsGetsDonesRetries(t *testing.T) {
	clk := clocktest.NewFakeClock(epoch)
	p := newRecordingProvider()
	q := workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Hour, time.Hour),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "test", MetricsProvider: p, Clock: clk})
	defer q.ShutDown()

	q.Add("a")
	q.Add("a") // duplicate: not counted
	q.Add("b")
	m := p.snapshot("test")
	assert.Equal(t, 2.0, m.adds)
	assert.Equal(t, 2.0, m.depth)

	clk.Step(time.Second)
	assert.Equal(t, "a", mustGet(t, q))
	m = p.snapshot("test")
	assert.Equal(t, 1.0, m.depth)
	assert.Equal(t, []float64{1.0}, m.latencies, "a waited 1 s")

	q.Add("a") // newly dirty while processing: counted, like client-go
	m = p.snapshot("test")
	assert.Equal(t, 3.0, m.adds)
	assert.Equal(t, 2.0, m.depth)

	clk.Step(2 * time.Second)
	q.Done("a")
	m = p.snapshot("test")
	assert.Equal(t, []float64{2.0}, m.workDurations, "a was processed for 2 s")

	q.AddAfter("c", 0)         // retry, added at once
	q.AddAfter("d", time.Hour) // retry, still waiting: not an add yet
	q.AddRateLimited("e")      // retry through the limiter
	m = p.snapshot("test")
	assert.Equal(t, 3.0, m.retries)
	assert.Equal(t, 4.0, m.adds)
	assert.Equal(t, 3.0, m.depth, "b, a (re-queued) and c wait")

	for range 3 {
		q.Done(mustGet(t, q))
	}
	m = p.snapshot("test")
	assert.Equal(t, 0.0, m.depth)
	assert.Len(t, m.latencies, 4)
	assert.Len(t, m.workDurations, 4)
}

// Reference 13: the unfinished-work gauges are refreshed every 500 ms of clock time.
func TestMetricsUnfinishedWorkUpdatedPeriodically(t *testing.T) {
	clk := clocktest.NewFakeClock(epoch)
	p := newRecordingProvider()
	q := workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[string]{Name: "slow", MetricsProvider: p, Clock: clk})
	defer q.ShutDown()

	q.Add("a")
	mustGet(t, q)
	stepTo(t, clk, epoch.Add(500*time.Millisecond))
	require.Eventually(t, func() bool { return p.snapshot("slow").longest == 0.5 }, eventually, tick)
	assert.Equal(t, 0.5, p.snapshot("slow").unfinished)

	q.Add("b")
	mustGet(t, q)
	stepTo(t, clk, epoch.Add(time.Second))
	require.Eventually(t, func() bool { return p.snapshot("slow").longest == 1.0 }, eventually, tick)
	assert.Equal(t, 1.5, p.snapshot("slow").unfinished, "a ran 1 s and b 0.5 s")

	q.Done("a")
	q.Done("b")
	stepTo(t, clk, epoch.Add(1500*time.Millisecond))
	require.Eventually(t, func() bool { return p.snapshot("slow").longest == 0 }, eventually, tick)
	assert.Equal(t, 0.0, p.snapshot("slow").unfinished)

	q.ShutDown()
	assert.False(t, clk.HasWaiters(), "shut down stops the updater")
}

// Unnamed queues create no metrics and run no updater.
func TestUnnamedQueueRecordsNothing(t *testing.T) {
	clk := clocktest.NewFakeClock(epoch)
	p := newRecordingProvider()
	q := workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{MetricsProvider: p, Clock: clk})
	defer q.ShutDown()

	q.Add("a")
	q.Done(mustGet(t, q))
	q.AddRateLimited("b")
	assert.Equal(t, 0, p.createdCount())
	assert.Equal(t, recorded{}, p.snapshot(""))

	// The only timer is the delaying loop's, for b; no metrics updater.
	require.Eventually(t, clk.HasWaiters, eventually, tick)
	assert.Equal(t, 1, clk.Waiters())
}

// The Prometheus provider exposes client-go's metric names with a "name" label.
func TestPrometheusProviderExposesClientGoNames(t *testing.T) {
	reg := prometheus.NewRegistry()
	p, err := workqueue.NewPrometheusMetricsProvider(reg)
	require.NoError(t, err)
	q := workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "replicaset", MetricsProvider: p})
	defer q.ShutDown()

	q.Add("a")
	q.Add("b")
	q.Done(mustGet(t, q))
	q.AddAfter("c", 0)

	families, err := reg.Gather()
	require.NoError(t, err)
	got := map[string]float64{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			require.Len(t, m.GetLabel(), 1)
			assert.Equal(t, "name", m.GetLabel()[0].GetName())
			assert.Equal(t, "replicaset", m.GetLabel()[0].GetValue())
			switch {
			case m.Counter != nil:
				got[f.GetName()] = m.GetCounter().GetValue()
			case m.Gauge != nil:
				got[f.GetName()] = m.GetGauge().GetValue()
			case m.Histogram != nil:
				got[f.GetName()] = float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	assert.Equal(t, map[string]float64{
		"workqueue_depth":                             2, // b and c
		"workqueue_adds_total":                        3,
		"workqueue_queue_duration_seconds":            1, // samples
		"workqueue_work_duration_seconds":             1,
		"workqueue_unfinished_work_seconds":           0,
		"workqueue_longest_running_processor_seconds": 0,
		"workqueue_retries_total":                     1,
	}, got)

	_, err = workqueue.NewPrometheusMetricsProvider(reg)
	var already prometheus.AlreadyRegisteredError
	assert.True(t, errors.As(err, &already), "a second provider on one registry is an error, got %v", err)
}
