package union

import (
	"context"
	"errors"
	"strings"

	"kubeloop/apiserver/authorization/authorizer"
)

type unionAuthorizer []authorizer.Authorizer

// New asks each authorizer in order.
func New(authorizers ...authorizer.Authorizer) authorizer.Authorizer {
	return unionAuthorizer(authorizers)
}

// Authorize returns the first Allow or Deny; otherwise NoOpinion with the
// non-empty reasons joined by newlines, as Kubernetes does.
func (u unionAuthorizer) Authorize(ctx context.Context, a authorizer.Attributes) (authorizer.Decision, string, error) {
	var (
		reasons []string
		errs    []error
	)
	for _, az := range u {
		d, reason, err := az.Authorize(ctx, a)
		if err != nil {
			errs = append(errs, err)
		}
		if reason != "" {
			reasons = append(reasons, reason)
		}
		if d == authorizer.DecisionAllow || d == authorizer.DecisionDeny {
			return d, reason, err
		}
	}
	return authorizer.DecisionNoOpinion, strings.Join(reasons, "\n"), errors.Join(errs...)
}

// NewPrivilegedGroups allows every request of a user in any of groups
// (system:masters): the way back in when RBAC is broken.
func NewPrivilegedGroups(groups ...string) authorizer.Authorizer {
	return authorizer.AuthorizerFunc(func(_ context.Context, a authorizer.Attributes) (authorizer.Decision, string, error) {
		if a.User != nil {
			for _, g := range groups {
				if a.User.InGroup(g) {
					return authorizer.DecisionAllow, "", nil
				}
			}
		}
		return authorizer.DecisionNoOpinion, "", nil
	})
}
