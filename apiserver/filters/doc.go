// Package filters is the outer layer of the apiserver: the http.Handler
// wrappers every request passes before any API handler sees it — panic
// recovery, request-info parsing, the in-flight count. (Authentication,
// authorization and impersonation will be filters too.)
//
// Where it sits on the spine: first. The apiserver builds the chain
//
//	WithPanicRecovery → WithRequestInfo → WithInFlightMetrics → mux
//
// and the mux hands /api and /apis to the endpoint installer. Filters
// call only downward (the next handler) and the leaf packages request,
// metrics and responsewriters.
//
// Kubernetes counterparts (v1.37.2): staging/src/k8s.io/apiserver/pkg/
// server/config.go (DefaultBuildHandlerChain), server/filters/wrap.go
// (WithPanicRecovery), endpoints/filters/requestinfo.go (WithRequestInfo)
// and server/filters/maxinflight.go (WithMaxInFlightLimit).
//
// What we simplify: no authentication, authorization, audit, priority and
// fairness, CORS, HSTS, timeouts or request limits; the in-flight filter
// counts but never refuses.
package filters
