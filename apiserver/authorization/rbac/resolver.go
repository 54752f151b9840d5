package rbac

import (
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
)

// PolicyGetter is where the resolver reads roles and bindings. PolicyCache
// implements it. Kubernetes splits it in four (RoleGetter,
// RoleBindingLister, ClusterRoleGetter, ClusterRoleBindingLister).
// Returned objects are shared: read only.
type PolicyGetter interface {
	GetRole(namespace, name string) (*api.Role, bool)
	ListRoleBindings(namespace string) []*api.RoleBinding
	GetClusterRole(name string) (*api.ClusterRole, bool)
	ListClusterRoleBindings() []*api.ClusterRoleBinding
}

// RuleResolver answers which rules apply to a user in a namespace.
// Kubernetes: DefaultRuleResolver.
type RuleResolver struct {
	policy PolicyGetter
	// bound remembers the authorizer's resolutions (boundrules.go).
	bound boundRulesCache
}

// NewRuleResolver resolves rules from policy.
func NewRuleResolver(policy PolicyGetter) *RuleResolver {
	return &RuleResolver{policy: policy}
}

// visitor is called with each rule that applies (and the binding it came
// through, for messages), or with an error for a binding whose role is
// missing; it returns false to stop the walk.
type visitor func(source string, rule *api.PolicyRule, err error) bool

// VisitRulesFor walks the rules of every ClusterRoleBinding that names the
// user, then, in a namespace, of every RoleBinding there. The authorizer
// remembers the outcome per user and namespace (boundrules.go); the
// reviews and escalation checks walk every time.
func (r *RuleResolver) VisitRulesFor(u *user.Info, namespace string, visit visitor) {
	if u == nil {
		return
	}
	for _, b := range r.policy.ListClusterRoleBindings() {
		if !appliesTo(u, b.Subjects, "") {
			continue
		}
		rules, err := r.GetRoleReferenceRules(b.RoleRef, "")
		if err != nil {
			if !visit("", nil, err) {
				return
			}
			continue
		}
		source := fmt.Sprintf("ClusterRoleBinding %q of ClusterRole %q", b.Name, b.RoleRef.Name)
		for i := range rules {
			if !visit(source, &rules[i], nil) {
				return
			}
		}
	}
	if namespace == "" {
		return
	}
	for _, b := range r.policy.ListRoleBindings(namespace) {
		if !appliesTo(u, b.Subjects, namespace) {
			continue
		}
		rules, err := r.GetRoleReferenceRules(b.RoleRef, namespace)
		if err != nil {
			if !visit("", nil, err) {
				return
			}
			continue
		}
		source := fmt.Sprintf("RoleBinding %q of %s %q in namespace %q", b.Name, b.RoleRef.Kind, b.RoleRef.Name, namespace)
		for i := range rules {
			if !visit(source, &rules[i], nil) {
				return
			}
		}
	}
}

// RulesFor is every rule that applies to u in namespace; incomplete
// resolution (a binding to a missing role) is reported as errors, with the
// rules found so far. Kubernetes: DefaultRuleResolver.RulesFor.
func (r *RuleResolver) RulesFor(u *user.Info, namespace string) ([]api.PolicyRule, []error) {
	var (
		rules []api.PolicyRule
		errs  []error
	)
	r.VisitRulesFor(u, namespace, func(_ string, rule *api.PolicyRule, err error) bool {
		if rule != nil {
			rules = append(rules, *rule)
		}
		if err != nil {
			errs = append(errs, err)
		}
		return true
	})
	return rules, errs
}

// GetRoleReferenceRules is the rules of the role a binding names: a Role
// of the binding's namespace or a ClusterRole. A missing role is a
// NotFound error worded as Kubernetes' listers word it
// (`clusterrole.rbac.authorization.k8s.io "x" not found`).
func (r *RuleResolver) GetRoleReferenceRules(ref api.RoleRef, namespace string) ([]api.PolicyRule, error) {
	switch ref.Kind {
	case "Role":
		role, ok := r.policy.GetRole(namespace, ref.Name)
		if !ok {
			return nil, api.NewNotFound(api.GroupResource{Group: api.RBACGroupName, Resource: "role"}, ref.Name)
		}
		return role.Rules, nil
	case "ClusterRole":
		role, ok := r.policy.GetClusterRole(ref.Name)
		if !ok {
			return nil, api.NewNotFound(api.GroupResource{Group: api.RBACGroupName, Resource: "clusterrole"}, ref.Name)
		}
		return role.Rules, nil
	}
	return nil, fmt.Errorf("unsupported role reference kind: %q", ref.Kind)
}

// appliesTo says whether any subject names the user. A ServiceAccount
// subject without a namespace, in a RoleBinding, means an account of the
// binding's namespace.
func appliesTo(u *user.Info, subjects []api.Subject, namespace string) bool {
	for _, s := range subjects {
		switch s.Kind {
		case api.UserKind:
			if u.Name == s.Name {
				return true
			}
		case api.GroupKind:
			if u.InGroup(s.Name) {
				return true
			}
		case api.ServiceAccountKind:
			ns := namespace
			if s.Namespace != "" {
				ns = s.Namespace
			}
			if ns != "" && u.Name == ServiceAccountUsername(ns, s.Name) {
				return true
			}
		}
	}
	return false
}

// ServiceAccountUsername is the user name a ServiceAccount's token
// authenticates as. Kubernetes:
// staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go
// (MakeUsername).
func ServiceAccountUsername(namespace, name string) string {
	return "system:serviceaccount:" + namespace + ":" + name
}
