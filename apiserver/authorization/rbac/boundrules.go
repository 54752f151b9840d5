package rbac

// Skip on a first reading: a speed-up. Without it every request walks
// every ClusterRoleBinding (the bootstrap policy alone has about sixty)
// and every RoleBinding of its namespace, testing each subject against
// the user and formatting a source for each binding that applies — the
// same walk, with the same answer, thousands of times a second for a
// controller's one identity. The rules bound to a user in a namespace are
// remembered instead, and thrown away whenever any role or binding
// changes (PolicyCache.Generation moves on every watch event). What it
// saves is in BenchmarkAuthorizeBoundRules; the request-level price of
// RBAC is BenchmarkCreateConfigMapsAuth (apiserver/bench_auth_test.go).
// Kubernetes walks on every request (DefaultRuleResolver.VisitRulesFor
// over its informers' listers) and puts a cache, if any, in front of a
// webhook authorizer only.

import (
	"strings"
	"sync"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
)

// maxBoundRules bounds the cache: past it, it starts over.
const maxBoundRules = 4096

// Generationer is a PolicyGetter whose content has a version: any change
// to a role or binding moves it on. PolicyCache is one.
type Generationer interface {
	Generation() uint64
}

// boundRules are the rules that apply to one user in one namespace, and
// the errors (missing roles) met resolving them, as VisitRulesFor found
// them. The rules point into the policy's shared roles: read only.
type boundRules struct {
	rules []*api.PolicyRule
	errs  []error
}

// boundRulesCache holds boundRules for one generation of the policy.
type boundRulesCache struct {
	mu      sync.Mutex
	gen     uint64
	entries map[string]*boundRules
}

// boundRulesFor is VisitRulesFor's outcome for u in namespace, from the
// cache when the policy has not changed since it was computed.
func (r *RuleResolver) boundRulesFor(u *user.Info, namespace string) *boundRules {
	g, ok := r.policy.(Generationer)
	if !ok {
		return r.resolveBound(u, namespace)
	}
	// Read the generation before resolving: a change during the walk
	// moves it on, and the entry, filed under the old one, is never used.
	gen := g.Generation()
	key := boundRulesKey(u, namespace)
	c := &r.bound
	c.mu.Lock()
	if c.gen != gen || c.entries == nil {
		c.gen, c.entries = gen, map[string]*boundRules{}
	}
	b, ok := c.entries[key]
	c.mu.Unlock()
	if ok {
		return b
	}
	b = r.resolveBound(u, namespace)
	c.mu.Lock()
	if c.gen == gen {
		if len(c.entries) >= maxBoundRules {
			c.entries = map[string]*boundRules{}
		}
		c.entries[key] = b
	}
	c.mu.Unlock()
	return b
}

func (r *RuleResolver) resolveBound(u *user.Info, namespace string) *boundRules {
	b := &boundRules{}
	r.VisitRulesFor(u, namespace, func(_ string, rule *api.PolicyRule, err error) bool {
		if rule != nil {
			b.rules = append(b.rules, rule)
		}
		if err != nil {
			b.errs = append(b.errs, err)
		}
		return true
	})
	return b
}

// boundRulesKey is what RBAC looks at: the user's name and groups (a
// binding names users, groups and service accounts, which are user names),
// and the namespace.
func boundRulesKey(u *user.Info, namespace string) string {
	var b strings.Builder
	b.WriteString(namespace)
	b.WriteByte(0)
	b.WriteString(u.Name)
	for _, g := range u.Groups {
		b.WriteByte(0)
		b.WriteString(g)
	}
	return b.String()
}
