package watchcache

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are per resource (label "resource"). Every Cacher of an apiserver
// registers into the same Registerer; the second one finds the collectors
// already there and shares them.
type metrics struct {
	terminatedWatchers prometheus.Counter
	eventsDispatched   prometheus.Counter
	watchers           prometheus.Gauge
	resourceVersion    prometheus.Gauge
	gatherer           prometheus.Gatherer
}

func newMetrics(reg prometheus.Registerer, resource string) (*metrics, error) {
	var gatherer prometheus.Gatherer
	if reg == nil {
		r := prometheus.NewRegistry()
		reg, gatherer = r, r
	} else if g, ok := reg.(prometheus.Gatherer); ok {
		gatherer = g
	}
	terminated, err := registerCounterVec(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "kubeloop_watchcache_terminated_watchers_total",
		Help: "Watchers closed because they fell behind (their buffer was full).",
	}, []string{"resource"}))
	if err != nil {
		return nil, err
	}
	dispatched, err := registerCounterVec(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "kubeloop_watchcache_events_dispatched_total",
		Help: "Events from etcd fanned out to the watchers.",
	}, []string{"resource"}))
	if err != nil {
		return nil, err
	}
	watchers, err := registerGaugeVec(reg, prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "kubeloop_watchcache_watchers",
		Help: "Watchers currently served by the watch cache.",
	}, []string{"resource"}))
	if err != nil {
		return nil, err
	}
	rv, err := registerGaugeVec(reg, prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "kubeloop_watchcache_resource_version",
		Help: "The etcd revision the watch cache has caught up to.",
	}, []string{"resource"}))
	if err != nil {
		return nil, err
	}
	return &metrics{
		terminatedWatchers: terminated.WithLabelValues(resource),
		eventsDispatched:   dispatched.WithLabelValues(resource),
		watchers:           watchers.WithLabelValues(resource),
		resourceVersion:    rv.WithLabelValues(resource),
		gatherer:           gatherer,
	}, nil
}

func registerCounterVec(reg prometheus.Registerer, c *prometheus.CounterVec) (*prometheus.CounterVec, error) {
	if err := reg.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if existing, ok := are.ExistingCollector.(*prometheus.CounterVec); ok {
				return existing, nil
			}
		}
		return nil, err
	}
	return c, nil
}

func registerGaugeVec(reg prometheus.Registerer, g *prometheus.GaugeVec) (*prometheus.GaugeVec, error) {
	if err := reg.Register(g); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if existing, ok := are.ExistingCollector.(*prometheus.GaugeVec); ok {
				return existing, nil
			}
		}
		return nil, err
	}
	return g, nil
}
