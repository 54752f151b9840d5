package rbac

import (
	"context"
	"errors"
	"fmt"

	"kubeloop/apiserver/authorization/authorizer"
)

// Authorizer is the RBAC authorizer. It never denies: a request no rule
// allows gets NoOpinion, so that another authorizer may still allow it
// (and the union turns "nobody allowed it" into 403).
type Authorizer struct {
	resolver *RuleResolver
}

var _ authorizer.Authorizer = (*Authorizer)(nil)

// New is the RBAC authorizer over resolver. Kubernetes: rbac.New.
func New(resolver *RuleResolver) *Authorizer { return &Authorizer{resolver: resolver} }

// Authorize allows the request if a rule applying to the user covers it.
// Missing roles do not stop the walk (another binding may still allow the
// request); they become the reason of a refusal, "RBAC: ...".
func (a *Authorizer) Authorize(_ context.Context, attrs authorizer.Attributes) (authorizer.Decision, string, error) {
	if attrs.User == nil {
		return authorizer.DecisionNoOpinion, "", nil
	}
	bound := a.resolver.boundRulesFor(attrs.User, attrs.Namespace)
	for _, rule := range bound.rules {
		if RuleAllows(attrs, rule) {
			return authorizer.DecisionAllow, "", nil
		}
	}
	reason := ""
	if len(bound.errs) > 0 {
		reason = fmt.Sprintf("RBAC: %v", aggregate(bound.errs))
	}
	return authorizer.DecisionNoOpinion, reason, nil
}

// aggregate prints errors as apimachinery's utilerrors.NewAggregate does:
// one alone as itself, several as "[a, b]".
func aggregate(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	msg := "["
	for i, err := range errs {
		if i > 0 {
			msg += ", "
		}
		msg += err.Error()
	}
	return errors.New(msg + "]")
}
