package apiserver

import (
	"fmt"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the apiserver's own series, named as Kubernetes names them
// (staging/src/k8s.io/apiserver/pkg/endpoints/metrics/metrics.go), on a
// registry the Server owns.
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	watchers *prometheus.GaugeVec
	inflight *prometheus.GaugeVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
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

func (m *metrics) observe(verb, resource, subresource string, code int, d time.Duration) {
	m.requests.WithLabelValues(verb, resource, subresource, strconv.Itoa(code)).Inc()
	if verb != "watch" {
		m.duration.WithLabelValues(verb, resource, subresource).Observe(d.Seconds())
	}
}

// begin counts a request as in flight until the returned func is called.
func (m *metrics) begin(verb string) (end func()) {
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
