// Package metrics holds the apiserver's Prometheus series: requests by
// verb, resource, subresource and code, their latency, the requests in
// flight and the watches open, all named as kube-apiserver names them so
// that dashboards built for Kubernetes read kubeloop too.
//
// Where it sits on the spine: the endpoint installer records every
// resource request (Observe), the in-flight filter counts requests being
// served (Begin), and the watch handler keeps the watcher gauge.
//
// Kubernetes counterpart (v1.37.2):
// staging/src/k8s.io/apiserver/pkg/endpoints/metrics/metrics.go
// (requestCounter, requestLatencies, registeredWatchers, MonitorRequest,
// ResponseWriterDelegator) and
// staging/src/k8s.io/apiserver/pkg/server/filters/maxinflight.go (the
// current_inflight_requests gauge).
//
// What we simplify: a handful of series instead of dozens, no
// per-component or per-scope labels, and no in-flight limit, only the count.
package metrics
