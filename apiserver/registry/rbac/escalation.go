package rbac

import (
	"context"
	"errors"
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/authorization/authorizer"
	"kubeloop/apiserver/authorization/rbac"
	"kubeloop/apiserver/endpoints/request"
)

// Escalation is what escalation prevention asks: the authorizer (for the
// escalate and bind verbs) and the rule resolver (for what the writer
// holds). Without a resolver (a server not in RBAC mode) nothing is
// checked, as with Kubernetes' AlwaysAllow, which allows escalate and bind.
// The apiserver fills it in after building the storage the resolver reads.
type Escalation struct {
	Authorizer authorizer.Authorizer
	Resolver   *rbac.RuleResolver
}

// fullAuthority is cluster-admin's rules: what one must hold to write an
// aggregationRule, which can gather any rule at all.
var fullAuthority = []api.PolicyRule{
	{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}},
	{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}},
}

// escalationAllowed: system:masters may write any policy (the apiserver
// reconciles the bootstrap policy as one). Kubernetes:
// pkg/registry/rbac/escalation_check.go (EscalationAllowed).
func escalationAllowed(ctx context.Context) bool {
	u, ok := user.From(ctx)
	return ok && u.InGroup(user.SystemPrivilegedGroup)
}

// roleEscalationAuthorized: a user granted the escalate verb on roles or
// clusterroles may write rules beyond their own. Kubernetes:
// RoleEscalationAuthorized.
func (e *Escalation) roleEscalationAuthorized(ctx context.Context, resource string) bool {
	u, ok := user.From(ctx)
	if !ok || e.Authorizer == nil {
		return false
	}
	name := ""
	if ri, ok := request.RequestInfoFrom(ctx); ok {
		name = ri.Name
	}
	d, _, _ := e.Authorizer.Authorize(ctx, authorizer.Attributes{
		User: u, Verb: "escalate", APIGroup: api.RBACGroupName, APIVersion: "*",
		Resource: resource, Name: name, Namespace: request.NamespaceValue(ctx), IsResourceRequest: true,
	})
	return d == authorizer.DecisionAllow
}

// bindingAuthorized: a user granted the bind verb on the referenced role
// may bind it without holding its rules. Kubernetes: BindingAuthorized.
func (e *Escalation) bindingAuthorized(ctx context.Context, ref api.RoleRef, namespace string) bool {
	u, ok := user.From(ctx)
	if !ok || e.Authorizer == nil {
		return false
	}
	resource := map[string]string{"Role": "roles", "ClusterRole": "clusterroles"}[ref.Kind]
	if resource == "" {
		return false
	}
	d, _, _ := e.Authorizer.Authorize(ctx, authorizer.Attributes{
		User: u, Verb: "bind", APIGroup: ref.APIGroup, Resource: resource, Name: ref.Name,
		Namespace: namespace, IsResourceRequest: true,
	})
	return d == authorizer.DecisionAllow
}

// confirmNoEscalation refuses rules the user does not hold in the
// request's namespace (cluster-wide for cluster-scoped writes), listing
// what is missing. Kubernetes: pkg/registry/rbac/validation/rule.go
// (ConfirmNoEscalation).
func (e *Escalation) confirmNoEscalation(ctx context.Context, rules []api.PolicyRule) error {
	u, ok := user.From(ctx)
	if !ok {
		return errors.New("no user on context")
	}
	owner, resolutionErrs := e.Resolver.RulesFor(u, request.NamespaceValue(ctx))
	covered, missing := rbac.Covers(owner, rules)
	if covered {
		return nil
	}
	groups := u.Groups
	if groups == nil {
		groups = []string{}
	}
	msg := fmt.Sprintf("user %q (groups=%q) is attempting to grant RBAC permissions not currently held:\n%s",
		u.Name, groups, rbac.MissingRightsMessage(missing))
	if len(resolutionErrs) > 0 {
		msg += fmt.Sprintf("; resolution errors: %v", resolutionErrs)
	}
	return errors.New(msg)
}

// checkRole is the test of a Role or ClusterRole write.
func (e *Escalation) checkRole(ctx context.Context, gr api.GroupResource, obj api.Object) error {
	if e.Resolver == nil || escalationAllowed(ctx) || e.roleEscalationAuthorized(ctx, gr.Resource) {
		return nil
	}
	var (
		rules       []api.PolicyRule
		aggregation bool
	)
	switch r := obj.(type) {
	case *api.Role:
		rules = r.Rules
	case *api.ClusterRole:
		rules, aggregation = r.Rules, r.AggregationRule != nil
	}
	name := obj.GetObjectMeta().Name
	if err := e.confirmNoEscalation(ctx, rules); err != nil {
		return api.NewForbidden(gr, name, err)
	}
	if aggregation {
		if err := e.confirmNoEscalation(ctx, fullAuthority); err != nil {
			return api.NewForbidden(gr, name, errors.New("must have cluster-admin privileges to use the aggregationRule"))
		}
	}
	return nil
}

// checkBinding is the test of a RoleBinding or ClusterRoleBinding write:
// one may bind a role one could have written, or one one may bind.
func (e *Escalation) checkBinding(ctx context.Context, gr api.GroupResource, obj api.Object) error {
	if e.Resolver == nil || escalationAllowed(ctx) {
		return nil
	}
	var ref api.RoleRef
	switch b := obj.(type) {
	case *api.RoleBinding:
		ref = b.RoleRef
	case *api.ClusterRoleBinding:
		ref = b.RoleRef
	}
	namespace := request.NamespaceValue(ctx)
	if e.bindingAuthorized(ctx, ref, namespace) {
		return nil
	}
	name := obj.GetObjectMeta().Name
	rules, err := e.Resolver.GetRoleReferenceRules(ref, namespace)
	if err != nil {
		return api.NewForbidden(gr, name, err)
	}
	if err := e.confirmNoEscalation(ctx, rules); err != nil {
		return api.NewForbidden(gr, name, err)
	}
	return nil
}
