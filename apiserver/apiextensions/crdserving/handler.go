package crdserving

import (
	"fmt"
	"net/http"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints"
	"kubeloop/apiserver/endpoints/handlers/negotiation"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
	"kubeloop/apiserver/endpoints/request"
)

// ServeHTTP serves one request for a custom resource: the endpoints of
// the served version it names, or 404. It is the API handler's delegate
// for every group, version or resource the built-in registry does not
// have. Kubernetes: crdHandler.ServeHTTP.
func (s *Served) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ri, ok := request.RequestInfoFrom(r.Context())
	if !ok {
		ri = request.NewRequestInfo(r)
		r = r.WithContext(request.WithRequestInfo(r.Context(), ri))
	}
	vi, ok := s.lookup(ri.APIGroup, ri.APIVersion, ri.Resource)
	if !ok {
		if !s.servesGroupVersion(ri.APIGroup, ri.APIVersion) {
			http.NotFound(w, r)
			return
		}
		responsewriters.WriteStatus(w, endpoints.NotFoundResource())
		return
	}
	if vi.crd.terminating && ri.Verb == "create" {
		err := api.NewMethodNotSupported(api.GroupResource{Group: ri.APIGroup, Resource: ri.Resource}, ri.Verb)
		err.ErrStatus.Message = fmt.Sprintf("%s not allowed while custom resource definition is terminating", ri.Verb)
		responsewriters.WriteStatus(w, err)
		return
	}
	if ri.Verb == "patch" && negotiation.MediaType(r.Header.Get("Content-Type")) == "application/strategic-merge-patch+json" {
		// Strategic merge patch needs patch strategies from Go struct tags,
		// which custom resources do not have.
		responsewriters.WriteStatus(w, negotiation.NewUnsupportedMediaTypeError(r.Header.Get("Content-Type"),
			[]string{"application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"}))
		return
	}
	if d := vi.version.Deprecation; d != "" {
		w.Header().Add("Warning", `299 - "`+strings.ReplaceAll(d, `"`, `\"`)+`"`)
	}
	vi.handler.ServeHTTP(w, r)
}
