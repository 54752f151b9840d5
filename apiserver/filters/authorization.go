package filters

import (
	"fmt"
	"log/slog"
	"net/http"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/authorization/authorizer"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
	"kubeloop/apiserver/endpoints/request"
)

// WithAuthorization lets a request through only if the authorizer allows
// it; otherwise it answers 403 with Kubernetes' message, or 500 if the
// authorizer could not decide. It needs the user (authentication) and the
// RequestInfo above it. Kubernetes: staging/src/k8s.io/apiserver/pkg/
// endpoints/filters/authorization.go (WithAuthorization).
func WithAuthorization(next http.Handler, a authorizer.Authorizer, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		attrs := GetAuthorizerAttributes(r)
		decision, reason, err := a.Authorize(r.Context(), attrs)
		if decision == authorizer.DecisionAllow {
			next.ServeHTTP(w, r)
			return
		}
		if err != nil {
			responsewriters.WriteStatus(w, api.NewInternalError(err))
			return
		}
		log.Debug("forbidden", "user", userName(attrs.User), "verb", attrs.Verb, "resource", attrs.Resource, "path", attrs.Path, "reason", reason)
		responsewriters.WriteStatus(w, ForbiddenStatusError(attrs, reason))
	})
}

// GetAuthorizerAttributes is the request as authorization sees it: the
// user from authentication and what the RequestInfo parsed. Kubernetes:
// endpoints/filters/authorization.go (GetAuthorizerAttributes).
func GetAuthorizerAttributes(r *http.Request) authorizer.Attributes {
	a := authorizer.Attributes{Path: r.URL.Path, Verb: "get"}
	if u, ok := user.From(r.Context()); ok {
		a.User = u
	}
	info, ok := request.RequestInfoFrom(r.Context())
	if !ok {
		info = request.NewRequestInfo(r)
	}
	a.Verb = info.Verb
	a.IsResourceRequest = info.IsResourceRequest
	if a.IsResourceRequest {
		a.APIGroup, a.APIVersion = info.APIGroup, info.APIVersion
		a.Namespace, a.Resource, a.Subresource, a.Name = info.Namespace, info.Resource, info.Subresource, info.Name
		if a.Resource == "namespaces" && a.Name != "" {
			// Kubernetes' RequestInfo puts a namespace in its own namespace,
			// so a RoleBinding there may grant reading it.
			a.Namespace = a.Name
		}
	}
	return a
}

// ForbiddenStatusError is the 403 of a refused request, worded exactly as
// Kubernetes words it:
//
//	pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"
//	nodes "n1" is forbidden: User "alice" cannot get resource "nodes" in API group "" at the cluster scope
//	forbidden: User "alice" cannot get path "/metrics"
//
// with ": <reason>" appended when the authorizers gave one. Kubernetes:
// endpoints/handlers/responsewriters/errors.go (ForbiddenStatusError,
// forbiddenMessage).
func ForbiddenStatusError(a authorizer.Attributes, reason string) *api.StatusError {
	msg := forbiddenMessage(a)
	if reason != "" {
		msg += ": " + reason
	}
	gr := api.GroupResource{Group: a.APIGroup, Resource: a.Resource}
	return api.NewForbidden(gr, a.Name, fmt.Errorf("%s", msg))
}

func forbiddenMessage(a authorizer.Attributes) string {
	name := userName(a.User)
	if !a.IsResourceRequest {
		return fmt.Sprintf("User %q cannot %s path %q", name, a.Verb, a.Path)
	}
	resource := a.Resource
	if a.Subresource != "" {
		resource += "/" + a.Subresource
	}
	if a.Namespace != "" {
		return fmt.Sprintf("User %q cannot %s resource %q in API group %q in the namespace %q", name, a.Verb, resource, a.APIGroup, a.Namespace)
	}
	return fmt.Sprintf("User %q cannot %s resource %q in API group %q at the cluster scope", name, a.Verb, resource, a.APIGroup)
}

func userName(u *user.Info) string {
	if u == nil {
		return ""
	}
	return u.Name
}
