package user

import "context"

// Info is an authenticated (or anonymous) requester.
type Info struct {
	Name   string
	UID    string
	Groups []string
	Extra  map[string][]string
}

// The names Kubernetes gives special meaning to.
const (
	SystemPrivilegedGroup = "system:masters"
	NodesGroup            = "system:nodes"
	AllAuthenticated      = "system:authenticated"
	AllUnauthenticated    = "system:unauthenticated"
	Anonymous             = "system:anonymous"
	APIServerUser         = "system:apiserver"

	KubeProxy             = "system:kube-proxy"
	KubeControllerManager = "system:kube-controller-manager"
	KubeScheduler         = "system:kube-scheduler"
)

// InGroup reports whether u belongs to group.
func (u *Info) InGroup(group string) bool {
	for _, g := range u.Groups {
		if g == group {
			return true
		}
	}
	return false
}

type contextKey struct{}

// WithUser returns a copy of ctx carrying u; the authentication filter
// calls it once per request.
func WithUser(ctx context.Context, u *Info) context.Context {
	return context.WithValue(ctx, contextKey{}, u)
}

// From returns the user WithUser stored, if any.
func From(ctx context.Context) (*Info, bool) {
	u, ok := ctx.Value(contextKey{}).(*Info)
	return u, ok && u != nil
}
