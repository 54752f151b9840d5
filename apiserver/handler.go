package apiserver

import (
	"fmt"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"kubeloop/apiserver/discovery"
	"kubeloop/apiserver/endpoints"
	"kubeloop/apiserver/endpoints/handlers"
	"kubeloop/apiserver/filters"
	"kubeloop/apiserver/openapi"
	"kubeloop/apiserver/serializer"
)

// buildHandler is the whole HTTP API: the filters, then a mux with the
// endpoints beside the API (metrics, health, version, OpenAPI) and the API
// itself. Kubernetes: staging/src/k8s.io/apiserver/pkg/server/config.go
// (DefaultBuildHandlerChain) and handler.go (APIServerHandler).
func (s *Server) buildHandler(reg *prometheus.Registry) (http.Handler, error) {
	served := s.servedRegistry()
	oapi, err := openapi.New(served, GitVersion)
	if err != nil {
		return nil, fmt.Errorf("apiserver: openapi: %w", err)
	}
	if s.customResources != nil {
		oapi.SetCustomResources(s.customResources, s.log)
	}
	apis := endpoints.NewAPIHandler(endpoints.Config{
		Registry: served,
		Storage:  s.restStorage,
		Scope: handlers.RequestScope{
			Serializers: serializer.SupportedMediaTypes(),
			Admission:   s.admission,
			Logger:      s.log,
			Metrics:     s.metrics,
			StopContext: s.ctx,
		},
		Discovery:            discovery.New(servedKinds{builtin: served, custom: s.customResources}),
		Metrics:              s.metrics,
		Delegate:             s.customResourcesHandler(),
		DisableManagedFields: s.disableManagedFields,
	})
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", s.serveHealth)
	mux.HandleFunc("/livez", s.serveHealth)
	mux.HandleFunc("/readyz", s.serveReady)
	mux.HandleFunc("/version", s.serveVersion)
	mux.HandleFunc("/debug/trace", s.serveTrace)
	mux.Handle("/openapi/v2", oapi.V2())
	mux.Handle("/openapi/v3", oapi)
	mux.Handle("/openapi/v3/", oapi)
	mux.Handle("/", apis)

	// Kubernetes' order, innermost first: authorization, the in-flight
	// limit, impersonation, authentication, request info, panic recovery.
	var h http.Handler = mux
	h = filters.WithAuthorization(h, s.authorizer, s.log)
	h = filters.WithMaxInFlightLimit(h, s.maxRequestsInFlight, s.maxMutatingRequestsInFlight, s.metrics)
	h = filters.WithImpersonation(h, s.authorizer, s.log)
	h = filters.WithAuthentication(h, s.authenticator, s.log)
	// A speed-up, not a Kubernetes filter (filters/growstack.go).
	h = filters.WithGrownStack(h)
	h = filters.WithRequestInfo(h)
	h = filters.WithPanicRecovery(h, s.log)
	return h, nil
}
