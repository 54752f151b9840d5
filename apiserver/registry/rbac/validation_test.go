package rbac_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each bad object is refused with Kubernetes' message, and nothing is stored.
func TestInvalidRBACObjectsAreRefusedWithKubernetesMessages(t *testing.T) {
	ns := srv.NewNamespace(t)
	roles := group + "/namespaces/" + ns + "/roles"
	bindings := group + "/namespaces/" + ns + "/rolebindings"
	for _, c := range []struct {
		name, path, body, message string
	}{
		{"rule without verbs", roles, `{"metadata":{"name":"r1"},"rules":[{"apiGroups":[""],"resources":["pods"]}]}`,
			`Role.rbac.authorization.k8s.io "r1" is invalid: rules[0].verbs: Required value: verbs must contain at least one value`},
		{"rule without groups or resources", roles, `{"metadata":{"name":"r2"},"rules":[{"verbs":["get"]}]}`,
			`Role.rbac.authorization.k8s.io "r2" is invalid: [rules[0].apiGroups: Required value: resource rules must supply at least one api group, rules[0].resources: Required value: resource rules must supply at least one resource]`},
		{"URLs in a namespaced role", roles, `{"metadata":{"name":"r3"},"rules":[{"verbs":["get"],"nonResourceURLs":["/healthz"]}]}`,
			`Role.rbac.authorization.k8s.io "r3" is invalid: rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs`},
		{"URLs and resources together", group + "/clusterroles", `{"metadata":{"name":"t-both"},"rules":[{"verbs":["get"],"nonResourceURLs":["/x"],"resources":["pods"]}]}`,
			`ClusterRole.rbac.authorization.k8s.io "t-both" is invalid: rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs`},
		{"empty aggregation rule", group + "/clusterroles", `{"metadata":{"name":"t-agg"},"aggregationRule":{}}`,
			`ClusterRole.rbac.authorization.k8s.io "t-agg" is invalid: aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil`},
		{"name with a slash", roles, `{"metadata":{"name":"a/b"},"rules":[]}`, ``},
		{"unknown roleRef kind", bindings, `{"metadata":{"name":"b1"},"roleRef":{"kind":"Thing","name":"x"}}`,
			`RoleBinding.rbac.authorization.k8s.io "b1" is invalid: roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole"`},
		{"cluster binding to a Role", group + "/clusterrolebindings", `{"metadata":{"name":"t-b2"},"roleRef":{"kind":"Role","name":"x"}}`,
			`ClusterRoleBinding.rbac.authorization.k8s.io "t-b2" is invalid: roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"`},
		{"service account without namespace", group + "/clusterrolebindings", `{"metadata":{"name":"t-b3"},"roleRef":{"kind":"ClusterRole","name":"view"},"subjects":[{"kind":"ServiceAccount","name":"robot"}]}`,
			`ClusterRoleBinding.rbac.authorization.k8s.io "t-b3" is invalid: subjects[0].namespace: Required value`},
		{"unknown subject kind", bindings, `{"metadata":{"name":"b4"},"roleRef":{"kind":"Role","name":"x"},"subjects":[{"kind":"Robot","name":"r"}]}`,
			`RoleBinding.rbac.authorization.k8s.io "b4" is invalid: subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := do(t, "POST", c.path, c.body)
			if c.message == "" {
				// A name with a slash cannot even be addressed: refused all the same.
				assert.NotEqual(t, http.StatusCreated, resp.Code, resp.Body)
				return
			}
			require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
			assert.Equal(t, c.message, resp.Obj(t)["message"])
		})
	}
}

func TestBindingDefaultsAndImmutableRoleRef(t *testing.T) {
	ns := srv.NewNamespace(t)
	path := group + "/namespaces/" + ns + "/rolebindings"
	resp := do(t, "POST", path, `{"metadata":{"name":"b"},"roleRef":{"kind":"ClusterRole","name":"view"},
		"subjects":[{"kind":"User","name":"alice"},{"kind":"ServiceAccount","name":"robot"}]}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	obj := resp.Obj(t)
	assert.Equal(t, "rbac.authorization.k8s.io", obj["roleRef"].(map[string]any)["apiGroup"])
	subjects := obj["subjects"].([]any)
	assert.Equal(t, "rbac.authorization.k8s.io", subjects[0].(map[string]any)["apiGroup"])
	assert.NotContains(t, subjects[1], "apiGroup", "a ServiceAccount subject is in the core group")

	resp = srv.Do(t, "PATCH", path+"/b", "application/merge-patch+json", `{"roleRef":{"name":"edit"}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, `RoleBinding.rbac.authorization.k8s.io "b" is invalid: roleRef: Invalid value: {"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"edit"}: cannot change roleRef`,
		resp.Obj(t)["message"])
}

func TestRBACGroupIsInDiscovery(t *testing.T) {
	resp := do(t, "GET", group, "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	for _, name := range []string{"roles", "rolebindings", "clusterroles", "clusterrolebindings"} {
		assert.Contains(t, resp.Body, `"name":"`+name+`"`)
	}
}
