package filters

import (
	"net/http"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
	"kubeloop/apiserver/endpoints/metrics"
	"kubeloop/apiserver/endpoints/request"
)

// retryAfterSeconds is what a refused request is told to wait, as
// Kubernetes' max-in-flight filter says ("1").
const retryAfterSeconds = 1

// WithMaxInFlightLimit lets at most nonMutatingLimit reads (get, list) and
// mutatingLimit writes be served at once, and counts them in the
// in-flight gauge. A request beyond its limit is answered at once with 429
// TooManyRequests and Retry-After: 1, which clients honour by waiting and
// trying again. Long-running requests (IsLongRunning: watches, exec, logs,
// /debug/trace) are neither counted nor limited;
// members of system:masters are never refused ("a super-admin should
// always get an answer"). A limit ≤ 0 means no limit. It needs
// WithRequestInfo and WithAuthentication above it. Kubernetes:
// staging/src/k8s.io/apiserver/pkg/server/filters/maxinflight.go
// (WithMaxInFlightLimit), whose 429 body is plain text; ours is a Status,
// as every other error.
func WithMaxInFlightLimit(next http.Handler, nonMutatingLimit, mutatingLimit int, m *metrics.Metrics) http.Handler {
	// A semaphore per kind: a slot is taken by sending, freed by receiving.
	var nonMutating, mutating chan struct{}
	if nonMutatingLimit > 0 {
		nonMutating = make(chan struct{}, nonMutatingLimit)
	}
	if mutatingLimit > 0 {
		mutating = make(chan struct{}, mutatingLimit)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, ok := request.RequestInfoFrom(r.Context())
		if !ok {
			info = request.NewRequestInfo(r)
		}
		if IsLongRunning(info) {
			next.ServeHTTP(w, r)
			return
		}
		verb := info.Verb
		slots := mutating
		if verb == "get" || verb == "list" {
			slots = nonMutating
		}
		if slots != nil {
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
			default:
				if u, ok := user.From(r.Context()); !ok || !u.InGroup(user.SystemPrivilegedGroup) {
					m.Rejected(verb, info.Resource, info.Subresource)
					w.Header().Set("Retry-After", "1")
					responsewriters.WriteStatus(w, api.NewTooManyRequests("Too many requests, please try again later.", retryAfterSeconds))
					return
				}
			}
		}
		defer m.Begin(verb)()
		next.ServeHTTP(w, r)
	})
}
