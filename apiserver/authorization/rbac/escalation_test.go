package rbac_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Escalation prevention: a user who may write roles and bindings may still
// only grant what they hold, unless granted escalate or bind.
func TestEscalationPrevention(t *testing.T) {
	ns := srv.NewNamespace(t)
	roles := rbacV1 + "/namespaces/" + ns + "/roles"
	bindings := rbacV1 + "/namespaces/" + ns + "/rolebindings"
	for _, obj := range []struct{ path, body string }{
		{roles, `{"metadata":{"name":"policy-writer"},"rules":[
			{"verbs":["create","update","patch","get"],"apiGroups":["rbac.authorization.k8s.io"],"resources":["roles","rolebindings"]},
			{"verbs":["get","list"],"apiGroups":[""],"resources":["pods"]}]}`},
		{roles, `{"metadata":{"name":"escalator"},"rules":[{"verbs":["escalate"],"apiGroups":["rbac.authorization.k8s.io"],"resources":["roles"]}]}`},
		{roles, `{"metadata":{"name":"binder"},"rules":[{"verbs":["bind"],"apiGroups":["rbac.authorization.k8s.io"],"resources":["clusterroles"],"resourceNames":["system:aggregate-to-edit"]}]}`},
		{bindings, `{"metadata":{"name":"writers"},"roleRef":{"kind":"Role","name":"policy-writer"},"subjects":[{"kind":"User","name":"alice"},{"kind":"User","name":"bea"},{"kind":"User","name":"cid"}]}`},
		{bindings, `{"metadata":{"name":"escalators"},"roleRef":{"kind":"Role","name":"escalator"},"subjects":[{"kind":"User","name":"bea"}]}`},
		{bindings, `{"metadata":{"name":"binders"},"roleRef":{"kind":"Role","name":"binder"},"subjects":[{"kind":"User","name":"cid"}]}`},
	} {
		resp := srv.Admin(t, "POST", obj.path, obj.body)
		require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	}
	require.Eventually(t, func() bool {
		return srv.As(t, "cid", nil, "GET", bindings+"/binders", "").Code == http.StatusOK
	}, 20*time.Second, 20*time.Millisecond)

	held := `{"metadata":{"name":"held"},"rules":[{"verbs":["get"],"apiGroups":[""],"resources":["pods"]}]}`
	resp := srv.As(t, "alice", nil, "POST", roles, held)
	assert.Equal(t, http.StatusCreated, resp.Code, "granting what one holds: %s", resp.Body)

	more := `{"metadata":{"name":"more"},"rules":[{"verbs":["get","delete","deletecollection"],"apiGroups":[""],"resources":["pods","secrets"]}]}`
	resp = srv.As(t, "alice", nil, "POST", roles, more)
	require.Equal(t, http.StatusForbidden, resp.Code, resp.Body)
	assert.Equal(t, `roles.rbac.authorization.k8s.io "more" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:
{APIGroups:[""], Resources:["pods"], Verbs:["delete" "deletecollection"]}
{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete" "deletecollection"]}`, resp.Obj(t)["message"])
	assert.Equal(t, http.StatusNotFound, srv.Admin(t, "GET", roles+"/more", "").Code, "nothing stored")

	resp = srv.As(t, "alice", nil, "PATCH", roles+"/held", `{"rules":[{"verbs":["*"],"apiGroups":[""],"resources":["pods"]}]}`)
	require.Equal(t, http.StatusForbidden, resp.Code, "an update is checked too: %s", resp.Body)
	assert.Contains(t, resp.Obj(t)["message"], `{APIGroups:[""], Resources:["pods"], Verbs:["*"]}`)

	resp = srv.As(t, "bea", nil, "POST", roles, more)
	assert.Equal(t, http.StatusCreated, resp.Code, "escalate lets one write rules one does not hold: %s", resp.Body)

	edit := `{"metadata":{"name":"%s"},"roleRef":{"kind":"ClusterRole","name":"system:aggregate-to-edit"},"subjects":[{"kind":"User","name":"zed"}]}`
	resp = srv.As(t, "alice", nil, "POST", bindings, sprintf(edit, "alice-edit"))
	require.Equal(t, http.StatusForbidden, resp.Code, resp.Body)
	assert.Contains(t, resp.Obj(t)["message"], `rolebindings.rbac.authorization.k8s.io "alice-edit" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:`)
	resp = srv.As(t, "cid", nil, "POST", bindings, sprintf(edit, "cid-edit"))
	assert.Equal(t, http.StatusCreated, resp.Code, "bind lets one bind a role one does not hold: %s", resp.Body)

	resp = srv.As(t, "alice", nil, "POST", bindings, `{"metadata":{"name":"ghost"},"roleRef":{"kind":"Role","name":"ghost"},"subjects":[{"kind":"User","name":"zed"}]}`)
	require.Equal(t, http.StatusForbidden, resp.Code, resp.Body)
	assert.Equal(t, `rolebindings.rbac.authorization.k8s.io "ghost" is forbidden: role.rbac.authorization.k8s.io "ghost" not found`, resp.Obj(t)["message"])

	resp = srv.As(t, "alice", nil, "POST", bindings, `{"metadata":{"name":"mine"},"roleRef":{"kind":"Role","name":"held"},"subjects":[{"kind":"User","name":"zed"}]}`)
	assert.Equal(t, http.StatusCreated, resp.Code, "binding a role one holds: %s", resp.Body)
}

func TestAggregationRuleNeedsClusterAdmin(t *testing.T) {
	ns := srv.NewNamespace(t)
	name := ns + "-role-writer"
	require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", rbacV1+"/clusterroles", `{"metadata":{"name":"`+name+`"},"rules":[
		{"verbs":["create"],"apiGroups":["rbac.authorization.k8s.io"],"resources":["clusterroles"]}]}`).Code)
	require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", rbacV1+"/clusterrolebindings", `{"metadata":{"name":"`+name+`"},
		"roleRef":{"kind":"ClusterRole","name":"`+name+`"},"subjects":[{"kind":"User","name":"`+name+`"}]}`).Code)
	body := `{"metadata":{"name":"` + ns + `-agg"},"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"x":"y"}}]}}`
	var resp response
	require.Eventually(t, func() bool {
		resp = srv.As(t, name, nil, "POST", rbacV1+"/clusterroles", body)
		return resp.Code == http.StatusForbidden && resp.Obj(t)["message"] != nil &&
			resp.Obj(t)["message"] == `clusterroles.rbac.authorization.k8s.io "`+ns+`-agg" is forbidden: must have cluster-admin privileges to use the aggregationRule`
	}, 20*time.Second, 20*time.Millisecond, "last: %s", resp.Body)
}
