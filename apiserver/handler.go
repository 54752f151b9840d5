package apiserver

import (
	"fmt"
	"net/http"
	"strings"

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
	var h http.Handler = director{apis: apis, nonAPI: mux}
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

// director hands the API's paths (/api, /apis and below) to the API
// handler and the rest to the mux, as Kubernetes' APIServerHandler does
// (its director sends the paths under a go-restful web service's root to
// the container and the others to its NonGoRestfulMux; server/handler.go).
// The API handler parses the path itself (RequestInfo), so going through
// the ServeMux first would only match "/" again, which costs a create
// half a dozen allocations.
type director struct {
	apis, nonAPI http.Handler
}

func (d director) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	for _, root := range [...]string{"/api", "/apis"} {
		if rest, ok := strings.CutPrefix(p, root); ok && (rest == "" || rest[0] == '/') {
			d.apis.ServeHTTP(w, r)
			return
		}
	}
	d.nonAPI.ServeHTTP(w, r)
}
