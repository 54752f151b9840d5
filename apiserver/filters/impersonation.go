package filters

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/serviceaccount"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/authorization/authorizer"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
)

// The impersonation headers (kubectl --as, --as-group, --as-uid).
const (
	ImpersonateUserHeader            = "Impersonate-User"
	ImpersonateGroupHeader           = "Impersonate-Group"
	ImpersonateUIDHeader             = "Impersonate-Uid"
	ImpersonateUserExtraHeaderPrefix = "Impersonate-Extra-"
)

// WithImpersonation lets a user act as another: for each Impersonate-*
// header it asks the authorizer whether the authenticated user may
// "impersonate" that user, group, uid or extra value, and if all are
// allowed, replaces the request's user with the one asked for, so
// everything below (authorization, admission, SelfSubjectReview) sees only
// the impersonated user. A refusal is 403 with Kubernetes' message
// (users "bob" is forbidden: User "alice" cannot impersonate resource
// "users" in API group "" at the cluster scope). Kubernetes:
// staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go
// (WithImpersonation, buildImpersonationRequests).
func WithImpersonation(next http.Handler, a authorizer.Authorizer, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests, err := impersonationRequests(r.Header)
		if err != nil {
			responsewriters.WriteStatus(w, api.NewBadRequest(err.Error()))
			return
		}
		if len(requests) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		requestor, ok := user.From(r.Context())
		if !ok {
			responsewriters.WriteStatus(w, api.NewInternalError(fmt.Errorf("no user found for request")))
			return
		}
		target := &user.Info{}
		for _, req := range requests {
			attrs := req.attributes(requestor)
			decision, reason, err := a.Authorize(r.Context(), attrs)
			if err != nil && decision != authorizer.DecisionAllow {
				responsewriters.WriteStatus(w, api.NewInternalError(err))
				return
			}
			if decision != authorizer.DecisionAllow {
				log.Debug("forbidden impersonation", "user", requestor.Name, "as", req.kind, "name", req.name, "reason", reason)
				responsewriters.WriteStatus(w, ForbiddenStatusError(attrs, reason))
				return
			}
			req.apply(target)
		}
		target.Groups = withAllGroup(target)
		r = r.Clone(user.WithUser(r.Context(), target))
		for key := range r.Header {
			if strings.HasPrefix(key, "Impersonate-") {
				r.Header.Del(key)
			}
		}
		next.ServeHTTP(w, r)
	})
}

// impersonationRequest is one thing to act as: a user (or service
// account), a group, a uid, or one value of an extra key.
type impersonationRequest struct {
	kind      string // "users", "serviceaccounts", "groups", "uids", "userextras"
	namespace string // for serviceaccounts
	name      string
	extraKey  string // for userextras
	user      string // the full user name, for users and serviceaccounts
}

// impersonationRequests reads the headers. Groups, a uid or extras
// without a user are an error, as in Kubernetes.
func impersonationRequests(h http.Header) ([]impersonationRequest, error) {
	var out []impersonationRequest
	name := h.Get(ImpersonateUserHeader)
	if name != "" {
		if ns, sa, ok := serviceaccount.SplitUsername(name); ok {
			out = append(out, impersonationRequest{kind: "serviceaccounts", namespace: ns, name: sa, user: name})
		} else {
			out = append(out, impersonationRequest{kind: "users", name: name, user: name})
		}
	}
	others := false
	for _, g := range h.Values(ImpersonateGroupHeader) {
		out = append(out, impersonationRequest{kind: "groups", name: g})
		others = true
	}
	if uid := h.Get(ImpersonateUIDHeader); uid != "" {
		out = append(out, impersonationRequest{kind: "uids", name: uid})
		others = true
	}
	for key, values := range h {
		suffix, ok := strings.CutPrefix(key, ImpersonateUserExtraHeaderPrefix)
		if !ok {
			continue
		}
		extraKey, err := url.PathUnescape(strings.ToLower(suffix))
		if err != nil {
			return nil, fmt.Errorf("malformed extra key for impersonation request: %w", err)
		}
		for _, v := range values {
			out = append(out, impersonationRequest{kind: "userextras", extraKey: extraKey, name: v})
			others = true
		}
	}
	if name == "" && others {
		return nil, fmt.Errorf("requested impersonation of groups, a uid or extras without impersonating a user")
	}
	return out, nil
}

// attributes is the question put to the authorizer: may requestor
// impersonate this?
func (req impersonationRequest) attributes(requestor *user.Info) authorizer.Attributes {
	a := authorizer.Attributes{User: requestor, Verb: "impersonate", IsResourceRequest: true,
		Resource: req.kind, Namespace: req.namespace, Name: req.name}
	switch req.kind {
	case "uids":
		a.APIGroup = "authentication.k8s.io"
	case "userextras":
		a.APIGroup, a.Subresource = "authentication.k8s.io", req.extraKey
	}
	return a
}

func (req impersonationRequest) apply(u *user.Info) {
	switch req.kind {
	case "users":
		u.Name = req.user
	case "serviceaccounts":
		u.Name = req.user
		u.Groups = append(u.Groups, serviceaccount.AllServiceAccountsGroup, serviceaccount.NamespaceGroup(req.namespace))
	case "groups":
		u.Groups = append(u.Groups, req.name)
	case "uids":
		u.UID = req.name
	case "userextras":
		if u.Extra == nil {
			u.Extra = map[string][]string{}
		}
		u.Extra[req.extraKey] = append(u.Extra[req.extraKey], req.name)
	}
}

// withAllGroup adds system:authenticated to an impersonated user (or
// system:unauthenticated to system:anonymous) unless one of the two is
// already asked for, as Kubernetes does.
func withAllGroup(u *user.Info) []string {
	if u.InGroup(user.AllAuthenticated) || u.InGroup(user.AllUnauthenticated) {
		return u.Groups
	}
	if u.Name == user.Anonymous {
		return append(u.Groups, user.AllUnauthenticated)
	}
	return append(u.Groups, user.AllAuthenticated)
}
