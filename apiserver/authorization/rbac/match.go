package rbac

import (
	"slices"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/authorization/authorizer"
)

// RuleAllows says whether rule covers the request. A resource request
// names its resource as "resource/subresource" when it has a subresource,
// so a rule for "pods" does not reach "pods/status". Kubernetes: rbac.go
// RuleAllows.
func RuleAllows(a authorizer.Attributes, rule *api.PolicyRule) bool {
	if !verbMatches(rule, a.Verb) {
		return false
	}
	if !a.IsResourceRequest {
		return nonResourceURLMatches(rule, a.Path)
	}
	resource := a.Resource
	if a.Subresource != "" {
		resource += "/" + a.Subresource
	}
	return apiGroupMatches(rule, a.APIGroup) &&
		resourceMatches(rule, resource, a.Subresource) &&
		resourceNameMatches(rule, a.Name)
}

func verbMatches(rule *api.PolicyRule, verb string) bool {
	return has(rule.Verbs, api.VerbAll) || has(rule.Verbs, verb)
}

func apiGroupMatches(rule *api.PolicyRule, group string) bool {
	return has(rule.APIGroups, api.APIGroupAll) || has(rule.APIGroups, group)
}

// resourceMatches: "*" is every resource and subresource; "*/scale" is the
// scale subresource of every resource.
func resourceMatches(rule *api.PolicyRule, combined, subresource string) bool {
	for _, r := range rule.Resources {
		if r == api.ResourceAll || r == combined {
			return true
		}
		if subresource != "" && r == "*/"+subresource {
			return true
		}
	}
	return false
}

// resourceNameMatches: a rule without names covers every name.
func resourceNameMatches(rule *api.PolicyRule, name string) bool {
	return len(rule.ResourceNames) == 0 || has(rule.ResourceNames, name)
}

// nonResourceURLMatches: a URL ending in "*" is a prefix.
func nonResourceURLMatches(rule *api.PolicyRule, path string) bool {
	for _, u := range rule.NonResourceURLs {
		if u == api.NonResourceAll || u == path {
			return true
		}
		if prefix, ok := strings.CutSuffix(u, "*"); ok && strings.HasPrefix(path, prefix) {
			return true
		}
	}
	return false
}

func has(list []string, s string) bool { return slices.Contains(list, s) }
