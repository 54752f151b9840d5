package rbac

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/authorization/authorizer"
	"kubeloop/apiserver/authorization/bootstrappolicy"
)

// staticPolicy is the bootstrap policy plus one namespace's RoleBinding,
// in memory: what the PolicyCache holds once synced, without the watch.
type staticPolicy struct {
	roles        map[string]*api.ClusterRole
	bindings     []*api.ClusterRoleBinding
	role         *api.Role
	roleBindings []*api.RoleBinding
}

func newStaticPolicy() *staticPolicy {
	p := &staticPolicy{roles: map[string]*api.ClusterRole{}}
	for _, r := range append(bootstrappolicy.ClusterRoles(), bootstrappolicy.ControllerRoles()...) {
		p.roles[r.Name] = &r
	}
	for _, b := range append(bootstrappolicy.ClusterRoleBindings(), bootstrappolicy.ControllerRoleBindings()...) {
		p.bindings = append(p.bindings, &b)
	}
	p.role = &api.Role{ObjectMeta: api.ObjectMeta{Name: "cm-editor", Namespace: "ns"},
		Rules: []api.PolicyRule{{Verbs: []string{"create"}, APIGroups: []string{""}, Resources: []string{"configmaps"}}}}
	p.roleBindings = []*api.RoleBinding{{ObjectMeta: api.ObjectMeta{Name: "alice", Namespace: "ns"},
		RoleRef: api.RoleRef{Kind: "Role", Name: "cm-editor"}, Subjects: []api.Subject{{Kind: api.UserKind, Name: "alice"}}}}
	return p
}

func (p *staticPolicy) GetRole(ns, name string) (*api.Role, bool) {
	return p.role, ns == "ns" && name == p.role.Name
}
func (p *staticPolicy) ListRoleBindings(ns string) []*api.RoleBinding {
	if ns != "ns" {
		return nil
	}
	return p.roleBindings
}
func (p *staticPolicy) GetClusterRole(name string) (*api.ClusterRole, bool) {
	r, ok := p.roles[name]
	return r, ok
}
func (p *staticPolicy) ListClusterRoleBindings() []*api.ClusterRoleBinding { return p.bindings }

// versioned is staticPolicy with a generation that never moves: the
// resolver remembers what it resolved.
type versioned struct{ *staticPolicy }

func (versioned) Generation() uint64 { return 1 }

// BenchmarkAuthorizeBoundRules is one RBAC decision over the bootstrap
// policy and a RoleBinding, walking the bindings every time ("walk") and
// with the bound rules remembered ("remembered").
func BenchmarkAuthorizeBoundRules(b *testing.B) {
	attrs := authorizer.Attributes{
		User: &user.Info{Name: "alice", Groups: []string{"dev", user.AllAuthenticated}},
		Verb: "create", Namespace: "ns", Resource: "configmaps", IsResourceRequest: true,
	}
	for _, c := range []struct {
		name   string
		policy PolicyGetter
	}{{"walk", newStaticPolicy()}, {"remembered", versioned{newStaticPolicy()}}} {
		b.Run(c.name, func(b *testing.B) {
			a := New(NewRuleResolver(c.policy))
			for b.Loop() {
				d, _, _ := a.Authorize(b.Context(), attrs)
				if d != authorizer.DecisionAllow {
					b.Fatal(fmt.Sprint("denied: ", d))
				}
			}
		})
	}
}

// The remembered rules are the walk's.
func TestBoundRulesAreTheWalksRules(t *testing.T) {
	r := NewRuleResolver(versioned{newStaticPolicy()})
	for _, u := range []*user.Info{
		{Name: "alice", Groups: []string{user.AllAuthenticated}},
		{Name: "system:kube-scheduler", Groups: []string{user.AllAuthenticated}},
		{Name: user.Anonymous, Groups: []string{user.AllUnauthenticated}},
	} {
		for _, ns := range []string{"", "ns", "other"} {
			want, wantErrs := r.RulesFor(u, ns)
			got := r.boundRulesFor(u, ns)
			again := r.boundRulesFor(u, ns)
			require.Same(t, got, again, "%s in %q: remembered", u.Name, ns)
			require.Len(t, got.rules, len(want), "%s in %q", u.Name, ns)
			for i := range want {
				require.Equal(t, want[i], *got.rules[i])
			}
			require.Equal(t, wantErrs, got.errs)
		}
	}
}
