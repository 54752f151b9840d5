package apiserver

import (
	"kubeloop/api"
	authenticationreviews "kubeloop/apiserver/registry/authentication"
	authorizationreviews "kubeloop/apiserver/registry/authorization"
	"kubeloop/apiserver/registry/rest"
)

// servedRegistry is the stored kinds followed by the create-only ones —
// the access reviews and SelfSubjectReview — with the reviews' REST
// storages added. The handler installs, discovery lists and OpenAPI
// describes all of them alike; only the stored kinds have etcd storage and
// a watch cache (buildStorage). Kubernetes registers the reviews in their
// groups' NewRESTStorage (pkg/registry/authorization/rest,
// pkg/registry/authentication/rest) as plain Creaters.
func (s *Server) servedRegistry() *api.Registry {
	served := s.reg.With(append(authorizationreviews.Resources(), authenticationreviews.Resources()...)...)
	access := authorizationreviews.NewStorage(s.authorizer, s.rulesResolver())
	for _, info := range served.All()[len(s.reg.All()):] {
		var st rest.Storage = access[info.Resource]
		if info.Kind == "SelfSubjectReview" {
			st = authenticationreviews.SelfSubjectReviewREST{}
		}
		s.restStorage[info] = map[string]rest.Storage{"": st}
	}
	return served
}
