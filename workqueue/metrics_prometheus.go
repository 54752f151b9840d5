package workqueue

// Skip on a first reading: the metrics exported to Prometheus under
// client-go's names; see metrics.go.

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// PrometheusMetricsProvider exports queue metrics under client-go's names
// (subsystem "workqueue", one series per queue name). In Kubernetes the
// equivalent lives in k8s.io/component-base/metrics/prometheus/workqueue and
// is installed globally with workqueue.SetProvider; here it is an ordinary
// value passed in a queue's config, and it registers on the Registerer you
// give it rather than on a global one.
type PrometheusMetricsProvider struct {
	depth                   *prometheus.GaugeVec
	adds                    *prometheus.CounterVec
	latency                 *prometheus.HistogramVec
	workDuration            *prometheus.HistogramVec
	unfinishedWorkSeconds   *prometheus.GaugeVec
	longestRunningProcessor *prometheus.GaugeVec
	retries                 *prometheus.CounterVec
}

var _ MetricsProvider = (*PrometheusMetricsProvider)(nil)

// NewPrometheusMetricsProvider creates the seven metric families and
// registers them on reg. One provider serves any number of queues; their
// series differ by the "name" label.
func NewPrometheusMetricsProvider(reg prometheus.Registerer) (*PrometheusMetricsProvider, error) {
	const subsystem = "workqueue"
	labels := []string{"name"}
	// 10 ns .. 1000 s in decades, the buckets Kubernetes uses for both
	// latency histograms.
	buckets := prometheus.ExponentialBuckets(10e-9, 10, 12)
	p := &PrometheusMetricsProvider{
		depth: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Subsystem: subsystem, Name: "depth",
			Help: "Number of items waiting in the workqueue.",
		}, labels),
		adds: prometheus.NewCounterVec(prometheus.CounterOpts{
			Subsystem: subsystem, Name: "adds_total",
			Help: "Number of adds the workqueue accepted (duplicates of waiting items excluded).",
		}, labels),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Subsystem: subsystem, Name: "queue_duration_seconds",
			Help:    "Seconds an item waited in the workqueue before a worker got it.",
			Buckets: buckets,
		}, labels),
		workDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Subsystem: subsystem, Name: "work_duration_seconds",
			Help:    "Seconds a worker spent on an item, from Get to Done.",
			Buckets: buckets,
		}, labels),
		unfinishedWorkSeconds: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Subsystem: subsystem, Name: "unfinished_work_seconds",
			Help: "Sum of the seconds that items still being processed have run; growth reveals stuck workers.",
		}, labels),
		longestRunningProcessor: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Subsystem: subsystem, Name: "longest_running_processor_seconds",
			Help: "Seconds the longest-running item still being processed has run.",
		}, labels),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Subsystem: subsystem, Name: "retries_total",
			Help: "Number of delayed (AddAfter / AddRateLimited) adds to the workqueue.",
		}, labels),
	}
	for _, c := range []prometheus.Collector{
		p.depth, p.adds, p.latency, p.workDuration,
		p.unfinishedWorkSeconds, p.longestRunningProcessor, p.retries,
	} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("register workqueue metrics: %w", err)
		}
	}
	return p, nil
}

func (p *PrometheusMetricsProvider) NewDepthMetric(name string) GaugeMetric {
	return p.depth.WithLabelValues(name)
}

func (p *PrometheusMetricsProvider) NewAddsMetric(name string) CounterMetric {
	return p.adds.WithLabelValues(name)
}

func (p *PrometheusMetricsProvider) NewLatencyMetric(name string) HistogramMetric {
	return p.latency.WithLabelValues(name)
}

func (p *PrometheusMetricsProvider) NewWorkDurationMetric(name string) HistogramMetric {
	return p.workDuration.WithLabelValues(name)
}

func (p *PrometheusMetricsProvider) NewUnfinishedWorkSecondsMetric(name string) SettableGaugeMetric {
	return p.unfinishedWorkSeconds.WithLabelValues(name)
}

func (p *PrometheusMetricsProvider) NewLongestRunningProcessorSecondsMetric(name string) SettableGaugeMetric {
	return p.longestRunningProcessor.WithLabelValues(name)
}

func (p *PrometheusMetricsProvider) NewRetriesMetric(name string) CounterMetric {
	return p.retries.WithLabelValues(name)
}
