package metrics

import (
	"fmt"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the apiserver's own series, named as Kubernetes names them,
// on a registry the Server owns.
type Metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	watchers *prometheus.GaugeVec
	inflight *prometheus.GaugeVec
}

// New registers the series on reg.
func New(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_request_total",
			Help: "Requests served, by verb, resource, subresource and HTTP code.",
		}, []string{"verb", "resource", "subresource", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "apiserver_request_duration_seconds",
			Help:    "Request latency, by verb and resource. Watches are not included.",
			Buckets: []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10},
		}, []string{"verb", "resource", "subresource"}),
		watchers: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "apiserver_registered_watchers",
			Help: "Watches open now, by resource.",
		}, []string{"resource"}),
		// Kubernetes keeps this gauge in its max-in-flight filter
		// (apiserver/pkg/server/filters/maxinflight.go); we have no limit,
		// only the count. Watches are long-running and not counted.
		inflight: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "apiserver_current_inflight_requests",
			Help: "Requests being served now, by kind: readOnly or mutating. Watches are not included.",
		}, []string{"request_kind"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.watchers, m.inflight} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("apiserver: register metrics: %w", err)
		}
	}
	return m, nil
}

// Observe records one finished request.
func (m *Metrics) Observe(verb, resource, subresource string, code int, d time.Duration) {
	m.requests.WithLabelValues(verb, resource, subresource, strconv.Itoa(code)).Inc()
	if verb != "watch" {
		m.duration.WithLabelValues(verb, resource, subresource).Observe(d.Seconds())
	}
}

// Rejected records a request the in-flight limit refused with 429 before
// any handler ran: counted among the requests, as Kubernetes'
// RecordDroppedRequest counts it in apiserver_request_total, but not timed.
func (m *Metrics) Rejected(verb, resource, subresource string) {
	m.requests.WithLabelValues(verb, resource, subresource, strconv.Itoa(429)).Inc()
}

// Begin counts a request as in flight until the returned func is called.
// Watches are long-running and not counted (Kubernetes' max-in-flight
// filter skips them too).
func (m *Metrics) Begin(verb string) (end func()) {
	kind := "mutating"
	switch verb {
	case "get", "list":
		kind = "readOnly"
	case "watch":
		return func() {}
	}
	g := m.inflight.WithLabelValues(kind)
	g.Inc()
	return g.Dec
}

// Watchers is the gauge of open watches on one resource.
func (m *Metrics) Watchers(resource string) prometheus.Gauge {
	return m.watchers.WithLabelValues(resource)
}
