package filters

import (
	"net/http"

	"kubeloop/apiserver/endpoints/metrics"
	"kubeloop/apiserver/endpoints/request"
)

// WithInFlightMetrics counts every request as in flight, readOnly (get,
// list) or mutating, until it is answered. Watches are long-running and not
// counted. It needs WithRequestInfo above it. Kubernetes:
// staging/src/k8s.io/apiserver/pkg/server/filters/maxinflight.go
// (WithMaxInFlightLimit), which also refuses requests past a limit; we
// have no limit, only the count.
func WithInFlightMetrics(next http.Handler, m *metrics.Metrics) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		verb := "get"
		if info, ok := request.RequestInfoFrom(r.Context()); ok {
			verb = info.Verb
		}
		defer m.Begin(verb)()
		next.ServeHTTP(w, r)
	})
}
