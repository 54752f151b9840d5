package filters

import (
	"net/http"

	"kubeloop/apiserver/endpoints/request"
)

// WithRequestInfo parses what the request means once (verb, group,
// version, namespace, resource, subresource, name) and stores it in the
// request's context for everything below. Kubernetes:
// staging/src/k8s.io/apiserver/pkg/endpoints/filters/requestinfo.go
// (WithRequestInfo).
func WithRequestInfo(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := request.NewRequestInfo(r)
		next.ServeHTTP(w, r.WithContext(request.WithRequestInfo(r.Context(), info)))
	})
}
