package rbac

import (
	"context"
	"errors"
	"fmt"

	"kubeloop/api"
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
	allowed := false
	var errs []error
	a.resolver.VisitRulesFor(attrs.User, attrs.Namespace, func(_ string, rule *api.PolicyRule, err error) bool {
		if rule != nil && RuleAllows(attrs, rule) {
			allowed = true
			return false
		}
		if err != nil {
			errs = append(errs, err)
		}
		return true
	})
	if allowed {
		return authorizer.DecisionAllow, "", nil
	}
	reason := ""
	if len(errs) > 0 {
		reason = fmt.Sprintf("RBAC: %v", aggregate(errs))
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
