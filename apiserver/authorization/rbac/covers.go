package rbac

import (
	"fmt"
	"sort"
	"strings"

	"kubeloop/api"
)

// Covers says whether the owner's rules allow everything the servant
// rules would, and if not, which single-verb, single-resource pieces are
// missing. This is escalation prevention's test: one may write a role (or
// binding) only with rights one already has. Kubernetes:
// policy_comparator.go (Covers).
func Covers(owner, servant []api.PolicyRule) (bool, []api.PolicyRule) {
	var missing []api.PolicyRule
	for _, r := range servant {
		for _, sub := range BreakdownRule(r) {
			covered := false
			for _, o := range owner {
				if ruleCovers(o, sub) {
					covered = true
					break
				}
			}
			if !covered {
				missing = append(missing, sub)
			}
		}
	}
	return len(missing) == 0, missing
}

// BreakdownRule splits a rule into one rule per (group, resource, verb
// [, name]) and per (URL, verb). Kubernetes: BreakdownRule.
func BreakdownRule(r api.PolicyRule) []api.PolicyRule {
	var out []api.PolicyRule
	for _, g := range r.APIGroups {
		for _, res := range r.Resources {
			for _, v := range r.Verbs {
				if len(r.ResourceNames) == 0 {
					out = append(out, api.PolicyRule{APIGroups: []string{g}, Resources: []string{res}, Verbs: []string{v}})
					continue
				}
				for _, n := range r.ResourceNames {
					out = append(out, api.PolicyRule{APIGroups: []string{g}, Resources: []string{res}, Verbs: []string{v}, ResourceNames: []string{n}})
				}
			}
		}
	}
	for _, u := range r.NonResourceURLs {
		for _, v := range r.Verbs {
			out = append(out, api.PolicyRule{NonResourceURLs: []string{u}, Verbs: []string{v}})
		}
	}
	return out
}

// ruleCovers: the owner's rule includes every verb, group, resource, name
// and URL of the (broken-down) sub rule. A rule restricted to names does
// not cover one that is not.
func ruleCovers(o, sub api.PolicyRule) bool {
	verbs := has(o.Verbs, api.VerbAll) || hasAll(o.Verbs, sub.Verbs)
	groups := has(o.APIGroups, api.APIGroupAll) || hasAll(o.APIGroups, sub.APIGroups)
	names := len(o.ResourceNames) == 0 || (len(sub.ResourceNames) > 0 && hasAll(o.ResourceNames, sub.ResourceNames))
	return verbs && groups && names && resourcesCoverAll(o.Resources, sub.Resources) && urlsCoverAll(o.NonResourceURLs, sub.NonResourceURLs)
}

func hasAll(set, want []string) bool {
	for _, w := range want {
		if !has(set, w) {
			return false
		}
	}
	return true
}

// resourcesCoverAll: "*" covers everything, "*/sub" covers that
// subresource of every resource.
func resourcesCoverAll(owner, want []string) bool {
	if has(owner, api.ResourceAll) {
		return true
	}
	for _, w := range want {
		ok := has(owner, w)
		if !ok {
			if i := strings.Index(w, "/"); i >= 0 {
				ok = has(owner, "*"+w[i:])
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func urlsCoverAll(owner, want []string) bool {
	for _, w := range want {
		ok := false
		for _, o := range owner {
			if o == w || o == api.NonResourceAll {
				ok = true
			} else if p, star := strings.CutSuffix(o, "*"); star && strings.HasPrefix(w, p) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// CompactRules merges broken-down rules that differ only in their verb
// back into one rule per (group, resource[, name]), so a message lists
// "Verbs:["get" "list"]" once rather than a line per verb. Kubernetes:
// policy_compact.go (CompactRules).
func CompactRules(rules []api.PolicyRule) []api.PolicyRule {
	type key struct{ group, resource, name string }
	var out []api.PolicyRule
	simple := map[key]int{}
	for _, r := range rules {
		if len(r.APIGroups) != 1 || len(r.Resources) != 1 || len(r.ResourceNames) > 1 || len(r.NonResourceURLs) > 0 {
			out = append(out, r)
			continue
		}
		k := key{r.APIGroups[0], r.Resources[0], strings.Join(r.ResourceNames, "")}
		if i, ok := simple[k]; ok {
			out[i].Verbs = append(out[i].Verbs, r.Verbs...)
			continue
		}
		simple[k] = len(out)
		out = append(out, *r.DeepCopy())
	}
	return out
}

// CompactString prints a rule as Kubernetes' PolicyRule.CompactString:
// `{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}`.
func CompactString(r api.PolicyRule) string {
	var parts []string
	add := func(name string, v []string) {
		if len(v) > 0 {
			parts = append(parts, fmt.Sprintf("%s:%q", name, v))
		}
	}
	add("APIGroups", r.APIGroups)
	add("Resources", r.Resources)
	add("NonResourceURLs", r.NonResourceURLs)
	add("ResourceNames", r.ResourceNames)
	add("Verbs", r.Verbs)
	return "{" + strings.Join(parts, ", ") + "}"
}

// MissingRightsMessage is the sorted, compacted list of missing rules, one
// a line, as ConfirmNoEscalation prints them.
func MissingRightsMessage(missing []api.PolicyRule) string {
	var lines []string
	seen := map[string]bool{}
	for _, r := range CompactRules(missing) {
		s := CompactString(r)
		if !seen[s] {
			seen[s] = true
			lines = append(lines, s)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
