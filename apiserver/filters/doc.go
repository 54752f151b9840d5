// Package filters is the outer layer of the apiserver: the http.Handler
// wrappers every request passes before any API handler sees it — panic
// recovery, request-info parsing, authentication, the in-flight limit.
//
// Where it sits on the spine: first. The apiserver builds the chain
//
//	WithPanicRecovery → WithRequestInfo → WithAuthentication →
//	WithMaxInFlightLimit → mux
//
// and the mux hands /api and /apis to the endpoint installer. Filters
// call only downward (the next handler) and the leaf packages request,
// metrics and responsewriters.
//
// Kubernetes counterparts (v1.37.2): staging/src/k8s.io/apiserver/pkg/
// server/config.go (DefaultBuildHandlerChain), server/filters/wrap.go
// (WithPanicRecovery), endpoints/filters/requestinfo.go (WithRequestInfo),
// endpoints/filters/authentication.go (WithAuthentication) and
// server/filters/maxinflight.go (WithMaxInFlightLimit).
//
// What we simplify: no audit, priority and fairness, CORS, HSTS or
// timeouts; the in-flight limit is the classic one (two semaphores), not
// API Priority and Fairness, which is Kubernetes' default today.
package filters
