package authenticator

import (
	"net/http"
	"slices"

	"kubeloop/apiserver/authentication/user"
)

// AddAuthenticatedGroup puts every user auth finds into
// system:authenticated (unless it is already there, or the user is
// anonymous), the group RBAC grants the basics to. It copies the user, so
// an authenticator may hand out a shared *user.Info. Kubernetes:
// group/authenticated_group_adder.go.
func AddAuthenticatedGroup(auth Request) Request {
	return RequestFunc(func(r *http.Request) (*user.Info, bool, error) {
		u, ok, err := auth.AuthenticateRequest(r)
		if !ok || err != nil {
			return u, ok, err
		}
		if u.Name == user.Anonymous || u.InGroup(user.AllAuthenticated) || u.InGroup(user.AllUnauthenticated) {
			return u, true, nil
		}
		cp := *u
		cp.Groups = append(slices.Clip(u.Groups), user.AllAuthenticated)
		return &cp, true, nil
	})
}

// Anonymous authenticates every request as system:anonymous in group
// system:unauthenticated. It goes last, and only requests that presented
// no credentials at all reach it. Kubernetes: request/anonymous/anonymous.go.
func Anonymous() Request {
	return RequestFunc(func(*http.Request) (*user.Info, bool, error) {
		return &user.Info{Name: user.Anonymous, Groups: []string{user.AllUnauthenticated}}, true, nil
	})
}

// New puts authenticators together in Kubernetes' order: the given request
// authenticators (client certificates first, then bearer tokens), each
// user put into system:authenticated, then — if anonymous is allowed —
// system:anonymous for requests with no credentials. Bad credentials stop
// the chain before the anonymous fallback. Kubernetes:
// pkg/kubeapiserver/authenticator/config.go (Config.New).
func New(anonymous bool, auths ...Request) Request {
	a := AddAuthenticatedGroup(Union(false, auths...))
	if anonymous {
		a = Union(true, a, Anonymous())
	}
	return a
}
