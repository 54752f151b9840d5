package admission

import (
	"strings"

	"kubeloop/api"
)

// The RBAC rules: pkg/apis/rbac/validation/validation.go (ValidateRole,
// ValidateClusterRole, ValidatePolicyRule, ValidateRoleBinding,
// ValidateClusterRoleBinding and their updates), v1.37.2. A rule is
// checked for shape only: that it names verbs and either resources or
// non-resource URLs. Whether the writer may grant it is escalation
// prevention's question (the rbac registry), not validation's.

// nameIsPathSegment is the minimal name rule of roles and bindings
// (path.IsValidPathSegmentName): their names only have to fit in a URL
// path segment, so "system:node:n1" is a valid role name.
func nameIsPathSegment(name string, _ bool) []string {
	for _, bad := range []string{".", ".."} {
		if name == bad {
			return []string{"may not be '" + bad + "'"}
		}
	}
	var msgs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			msgs = append(msgs, "may not contain '"+bad+"'")
		}
	}
	return msgs
}

func validateRole(r *api.Role, namespaced bool) errorList {
	errs := validateObjectMeta(&r.ObjectMeta, namespaced, nameIsPathSegment, newPath("metadata"))
	for i, rule := range r.Rules {
		errs = append(errs, validatePolicyRule(rule, true, newPath("rules").Index(i))...)
	}
	return errs
}

func validateClusterRole(r *api.ClusterRole, namespaced bool) errorList {
	errs := validateObjectMeta(&r.ObjectMeta, namespaced, nameIsPathSegment, newPath("metadata"))
	for i, rule := range r.Rules {
		errs = append(errs, validatePolicyRule(rule, false, newPath("rules").Index(i))...)
	}
	if r.AggregationRule != nil {
		selectors := newPath("aggregationRule", "clusterRoleSelectors")
		if len(r.AggregationRule.ClusterRoleSelectors) == 0 {
			errs = append(errs, required(selectors, "at least one clusterRoleSelector required if aggregationRule is non-nil"))
		}
		for i := range r.AggregationRule.ClusterRoleSelectors {
			errs = append(errs, validateLabelSelector(&r.AggregationRule.ClusterRoleSelectors[i], selectors.Index(i))...)
		}
	}
	return errs
}

// validatePolicyRule: a rule is about resources or about non-resource URLs,
// never both, and a namespaced Role cannot speak of URLs, which belong to
// no namespace.
func validatePolicyRule(rule api.PolicyRule, namespaced bool, p fieldPath) errorList {
	var errs errorList
	if len(rule.Verbs) == 0 {
		errs = append(errs, required(p.Child("verbs"), "verbs must contain at least one value"))
	}
	if len(rule.NonResourceURLs) > 0 {
		if namespaced {
			errs = append(errs, invalid(p.Child("nonResourceURLs"), rule.NonResourceURLs, "namespaced rules cannot apply to non-resource URLs"))
		}
		if len(rule.APIGroups) > 0 || len(rule.Resources) > 0 || len(rule.ResourceNames) > 0 {
			errs = append(errs, invalid(p.Child("nonResourceURLs"), rule.NonResourceURLs, "rules cannot apply to both regular resources and non-resource URLs"))
		}
		return errs
	}
	if len(rule.APIGroups) == 0 {
		errs = append(errs, required(p.Child("apiGroups"), "resource rules must supply at least one api group"))
	}
	if len(rule.Resources) == 0 {
		errs = append(errs, required(p.Child("resources"), "resource rules must supply at least one resource"))
	}
	return errs
}

func validateRoleBinding(b *api.RoleBinding, namespaced bool) errorList {
	errs := validateObjectMeta(&b.ObjectMeta, namespaced, nameIsPathSegment, newPath("metadata"))
	errs = append(errs, validateRoleRef(b.RoleRef, []string{"Role", "ClusterRole"})...)
	for i, s := range b.Subjects {
		errs = append(errs, validateSubject(s, true, newPath("subjects").Index(i))...)
	}
	return errs
}

func validateClusterRoleBinding(b *api.ClusterRoleBinding, namespaced bool) errorList {
	errs := validateObjectMeta(&b.ObjectMeta, namespaced, nameIsPathSegment, newPath("metadata"))
	errs = append(errs, validateRoleRef(b.RoleRef, []string{"ClusterRole"})...)
	for i, s := range b.Subjects {
		errs = append(errs, validateSubject(s, false, newPath("subjects").Index(i))...)
	}
	return errs
}

// validateRoleRef: a ClusterRoleBinding can only grant a ClusterRole,
// since a Role exists in one namespace only.
func validateRoleRef(ref api.RoleRef, kinds []string) errorList {
	var errs errorList
	p := newPath("roleRef")
	if ref.APIGroup != api.RBACGroupName {
		errs = append(errs, notSupported(p.Child("apiGroup"), ref.APIGroup, []string{api.RBACGroupName}))
	}
	known := false
	for _, k := range kinds {
		known = known || ref.Kind == k
	}
	if !known {
		errs = append(errs, notSupported(p.Child("kind"), ref.Kind, kinds))
	}
	if ref.Name == "" {
		errs = append(errs, required(p.Child("name"), ""))
	}
	for _, msg := range nameIsPathSegment(ref.Name, false) {
		errs = append(errs, invalid(p.Child("name"), ref.Name, msg))
	}
	return errs
}

// validateSubject: a ServiceAccount outside a RoleBinding must say which
// namespace it is in; users and groups are whatever names the
// authenticator produces, so only emptiness is refused.
func validateSubject(s api.Subject, inRoleBinding bool, p fieldPath) errorList {
	var errs errorList
	if s.Name == "" {
		errs = append(errs, required(p.Child("name"), ""))
	}
	switch s.Kind {
	case api.ServiceAccountKind:
		if s.Name != "" {
			for _, msg := range api.NameIsDNSSubdomain(s.Name, false) {
				errs = append(errs, invalid(p.Child("name"), s.Name, msg))
			}
		}
		if s.APIGroup != "" {
			errs = append(errs, notSupported(p.Child("apiGroup"), s.APIGroup, []string{""}))
		}
		if !inRoleBinding && s.Namespace == "" {
			errs = append(errs, required(p.Child("namespace"), ""))
		}
	case api.UserKind, api.GroupKind:
		if s.Name == "" {
			errs = append(errs, invalid(p.Child("name"), s.Name, strings.ToLower(s.Kind)+" name cannot be empty"))
		}
		if s.APIGroup != api.RBACGroupName {
			errs = append(errs, notSupported(p.Child("apiGroup"), s.APIGroup, []string{api.RBACGroupName}))
		}
	default:
		errs = append(errs, notSupported(p.Child("kind"), s.Kind, []string{api.ServiceAccountKind, api.UserKind, api.GroupKind}))
	}
	return errs
}

// validateRoleRefUpdate: a binding's role cannot change, because who may
// edit a binding and who may grant a role are different questions; one
// deletes and recreates the binding instead.
func validateRoleRefUpdate(obj, old api.Object) errorList {
	var ref, oldRef api.RoleRef
	switch b := obj.(type) {
	case *api.RoleBinding:
		o, ok := old.(*api.RoleBinding)
		if !ok {
			return nil
		}
		ref, oldRef = b.RoleRef, o.RoleRef
	case *api.ClusterRoleBinding:
		o, ok := old.(*api.ClusterRoleBinding)
		if !ok {
			return nil
		}
		ref, oldRef = b.RoleRef, o.RoleRef
	default:
		return nil
	}
	if ref != oldRef {
		return errorList{invalid(newPath("roleRef"), ref, "cannot change roleRef")}
	}
	return nil
}
