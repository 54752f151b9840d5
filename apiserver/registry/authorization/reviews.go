package authorization

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/authorization/authorizer"
	"kubeloop/apiserver/authorization/rbac"
)

// RuleResolver lists a user's rules (rbac.RuleResolver); nil when the
// server has no RBAC, and the rules review then answers incomplete.
type RuleResolver interface {
	RulesFor(u *user.Info, namespace string) ([]api.PolicyRule, []error)
}

var _ RuleResolver = (*rbac.RuleResolver)(nil)

// reviewSelf answers a SelfSubjectAccessReview for the caller.
// admit is validating admission, called once the review is valid.
func reviewSelf(ctx context.Context, az authorizer.Authorizer, r *api.SelfSubjectAccessReview, admit func() error) error {
	u, ok := user.From(ctx)
	if !ok {
		return api.NewBadRequest("no user present on request")
	}
	if err := validateAttributes(r.Spec.ResourceAttributes, r.Spec.NonResourceAttributes, "SelfSubjectAccessReview"); err != nil {
		return err
	}
	if err := admit(); err != nil {
		return err
	}
	r.Status = decide(ctx, az, attributesFor(u, r.Spec.ResourceAttributes, r.Spec.NonResourceAttributes))
	return nil
}

// reviewSubject answers a SubjectAccessReview for the user in its spec.
func reviewSubject(ctx context.Context, az authorizer.Authorizer, r *api.SubjectAccessReview, admit func() error) error {
	if err := validateAttributes(r.Spec.ResourceAttributes, r.Spec.NonResourceAttributes, "SubjectAccessReview"); err != nil {
		return err
	}
	if r.Spec.User == "" && len(r.Spec.Groups) == 0 {
		return api.NewInvalid(api.AuthorizationGroupName, "SubjectAccessReview", "", []api.StatusCause{{
			Type: api.CauseTypeFieldValueInvalid, Field: "spec.user",
			Message: `Invalid value: "": at least one of user or group must be specified`}})
	}
	if err := admit(); err != nil {
		return err
	}
	u := &user.Info{Name: r.Spec.User, UID: r.Spec.UID, Groups: r.Spec.Groups}
	if len(r.Spec.Extra) > 0 {
		u.Extra = map[string][]string{}
		for k, v := range r.Spec.Extra {
			u.Extra[k] = v.Items
		}
	}
	r.Status = decide(ctx, az, attributesFor(u, r.Spec.ResourceAttributes, r.Spec.NonResourceAttributes))
	return nil
}

// reviewRules answers a SelfSubjectRulesReview from RBAC's rules.
func reviewRules(ctx context.Context, resolver RuleResolver, r *api.SelfSubjectRulesReview, admit func() error) error {
	u, ok := user.From(ctx)
	if !ok {
		return api.NewBadRequest("no user present on request")
	}
	if r.Spec.Namespace == "" {
		return api.NewBadRequest("no namespace on request")
	}
	if err := admit(); err != nil {
		return err
	}
	st := api.SubjectRulesReviewStatus{ResourceRules: []api.ResourceRule{}, NonResourceRules: []api.NonResourceRule{}}
	if resolver == nil {
		st.Incomplete, st.EvaluationError = true, "no rule resolver: the server does not run RBAC"
		r.Status = st
		return nil
	}
	rules, errs := resolver.RulesFor(u, r.Spec.Namespace)
	for _, rule := range rules {
		if len(rule.NonResourceURLs) > 0 {
			st.NonResourceRules = append(st.NonResourceRules, api.NonResourceRule{Verbs: rule.Verbs, NonResourceURLs: rule.NonResourceURLs})
			continue
		}
		st.ResourceRules = append(st.ResourceRules, api.ResourceRule{
			Verbs: rule.Verbs, APIGroups: rule.APIGroups, Resources: rule.Resources, ResourceNames: rule.ResourceNames,
		})
	}
	if len(errs) > 0 {
		st.Incomplete = true
		st.EvaluationError = fmt.Sprint(errors.Join(errs...))
	}
	r.Status = st
	return nil
}

// validateAttributes: exactly one of the two attribute sets, worded as
// Kubernetes' ValidateSubjectAccessReviewSpec.
func validateAttributes(res *api.ResourceAttributes, nonRes *api.NonResourceAttributes, kind string) error {
	var cause api.StatusCause
	switch {
	case res != nil && nonRes != nil:
		value, _ := json.Marshal(nonRes)
		cause = api.StatusCause{Type: api.CauseTypeFieldValueInvalid, Field: "spec.nonResourceAttributes",
			Message: "Invalid value: " + string(value) + ": cannot be specified in combination with resourceAttributes"}
	case res == nil && nonRes == nil:
		cause = api.StatusCause{Type: api.CauseTypeFieldValueInvalid, Field: "spec.resourceAttributes",
			Message: "Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified"}
	default:
		return nil
	}
	return api.NewInvalid(api.AuthorizationGroupName, kind, "", []api.StatusCause{cause})
}

// attributesFor is the request a review describes, as the authorization
// filter would have built it. Kubernetes: util/helpers.go
// (ResourceAttributesFrom, NonResourceAttributesFrom).
func attributesFor(u *user.Info, res *api.ResourceAttributes, nonRes *api.NonResourceAttributes) authorizer.Attributes {
	if nonRes != nil {
		return authorizer.Attributes{User: u, Verb: nonRes.Verb, Path: nonRes.Path}
	}
	return authorizer.Attributes{
		User: u, Verb: res.Verb, Namespace: res.Namespace, APIGroup: res.Group, APIVersion: res.Version,
		Resource: res.Resource, Subresource: res.Subresource, Name: res.Name, IsResourceRequest: true,
	}
}

// decide asks the authorizer. An error does not make the answer wrong: it
// goes into evaluationError beside it.
func decide(ctx context.Context, az authorizer.Authorizer, a authorizer.Attributes) api.SubjectAccessReviewStatus {
	d, reason, err := az.Authorize(ctx, a)
	st := api.SubjectAccessReviewStatus{
		Allowed: d == authorizer.DecisionAllow,
		Denied:  d == authorizer.DecisionDeny,
		Reason:  strings.TrimSpace(reason),
	}
	if err != nil {
		st.EvaluationError = err.Error()
	}
	return st
}
