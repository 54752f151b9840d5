package rbac_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRBACMatrix: one policy, many requests, each allowed or refused with
// exactly Kubernetes' message. (view and edit are bound through the roles
// they aggregate: no aggregation controller runs here.)
func TestRBACMatrix(t *testing.T) {
	ns := srv.NewNamespace(t)
	other := srv.NewNamespace(t)
	for _, obj := range []struct{ path, body string }{
		{rbacV1 + "/namespaces/" + ns + "/roles", `{"metadata":{"name":"pod-reader"},"rules":[{"verbs":["get","list"],"apiGroups":[""],"resources":["pods"]}]}`},
		{rbacV1 + "/namespaces/" + ns + "/roles", `{"metadata":{"name":"one-cm"},"rules":[{"verbs":["get","update"],"apiGroups":[""],"resources":["configmaps"],"resourceNames":["cm1"]}]}`},
		{rbacV1 + "/namespaces/" + ns + "/roles", `{"metadata":{"name":"scaler"},"rules":[{"verbs":["patch"],"apiGroups":["apps"],"resources":["replicasets/scale"]}]}`},
		{rbacV1 + "/namespaces/" + ns + "/rolebindings", `{"metadata":{"name":"alice-reads"},"roleRef":{"kind":"Role","name":"pod-reader"},"subjects":[{"kind":"User","name":"alice"}]}`},
		{rbacV1 + "/namespaces/" + ns + "/rolebindings", `{"metadata":{"name":"devs-edit"},"roleRef":{"kind":"ClusterRole","name":"system:aggregate-to-edit"},"subjects":[{"kind":"Group","name":"dev"}]}`},
		{rbacV1 + "/namespaces/" + ns + "/rolebindings", `{"metadata":{"name":"robot-cm"},"roleRef":{"kind":"Role","name":"one-cm"},"subjects":[{"kind":"ServiceAccount","name":"robot"}]}`},
		{rbacV1 + "/namespaces/" + ns + "/rolebindings", `{"metadata":{"name":"erin-scales"},"roleRef":{"kind":"Role","name":"scaler"},"subjects":[{"kind":"User","name":"erin"}]}`},
		{rbacV1 + "/namespaces/" + ns + "/rolebindings", `{"metadata":{"name":"frank-missing"},"roleRef":{"kind":"Role","name":"nope"},"subjects":[{"kind":"User","name":"frank"}]}`},
		{rbacV1 + "/clusterrolebindings", `{"metadata":{"name":"` + ns + `-bob-views"},"roleRef":{"kind":"ClusterRole","name":"system:aggregate-to-view"},"subjects":[{"kind":"User","name":"bob"}]}`},
	} {
		resp := srv.Admin(t, "POST", obj.path, obj.body)
		require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	}
	// The policy cache follows the writes through a watch: wait until the
	// last binding shows.
	require.Eventually(t, func() bool {
		return srv.As(t, "bob", nil, "GET", "/api/v1/namespaces/"+ns+"/pods", "").Code == http.StatusOK &&
			srv.As(t, "frank", nil, "GET", "/api/v1/namespaces/"+ns+"/pods", "").Body != ""
	}, 20*time.Second, 20*time.Millisecond)

	robot := "system:serviceaccount:" + ns + ":robot"
	pods := "/api/v1/namespaces/" + ns + "/pods"
	for _, c := range []struct {
		name, user string
		groups     []string
		method     string
		path, body string
		code       int
		message    string
	}{
		{"role grants list in its namespace", "alice", nil, "GET", pods, "", 200, ""},
		{"role grants get", "alice", nil, "GET", pods + "/nothere", "", 404, ""},
		{"role does not grant create", "alice", nil, "POST", pods, `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`, 403,
			`pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "` + ns + `"`},
		{"role does not reach another namespace", "alice", nil, "GET", "/api/v1/namespaces/" + other + "/pods", "", 403,
			`pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "` + other + `"`},
		{"role does not reach the cluster scope", "alice", nil, "GET", "/api/v1/pods", "", 403,
			`pods is forbidden: User "alice" cannot list resource "pods" in API group "" at the cluster scope`},
		{"role does not reach a subresource", "alice", nil, "GET", pods + "/p/status", "", 403,
			`pods "p" is forbidden: User "alice" cannot get resource "pods/status" in API group "" in the namespace "` + ns + `"`},
		{"cluster binding of view reaches every namespace", "bob", nil, "GET", "/api/v1/namespaces/" + other + "/configmaps", "", 200, ""},
		{"view does not read secrets", "bob", nil, "GET", "/api/v1/namespaces/" + ns + "/secrets", "", 403,
			`secrets is forbidden: User "bob" cannot list resource "secrets" in API group "" in the namespace "` + ns + `"`},
		{"view does not write", "bob", nil, "DELETE", "/api/v1/namespaces/" + ns + "/configmaps/x", "", 403,
			`configmaps "x" is forbidden: User "bob" cannot delete resource "configmaps" in API group "" in the namespace "` + ns + `"`},
		{"group binding of edit", "carol", []string{"dev"}, "POST", "/api/v1/namespaces/" + ns + "/configmaps", `{"metadata":{"name":"c1"}}`, 201, ""},
		{"edit does not reach roles", "carol", []string{"dev"}, "GET", rbacV1 + "/namespaces/" + ns + "/roles", "", 403,
			`roles.rbac.authorization.k8s.io is forbidden: User "carol" cannot list resource "roles" in API group "rbac.authorization.k8s.io" in the namespace "` + ns + `"`},
		{"service account subject without namespace means the binding's", robot, []string{"system:serviceaccounts"}, "GET", "/api/v1/namespaces/" + ns + "/configmaps/cm1", "", 404, ""},
		{"resourceNames restrict the name", robot, nil, "GET", "/api/v1/namespaces/" + ns + "/configmaps/cm2", "", 403,
			`configmaps "cm2" is forbidden: User "` + robot + `" cannot get resource "configmaps" in API group "" in the namespace "` + ns + `"`},
		{"resourceNames cannot grant list", robot, nil, "GET", "/api/v1/namespaces/" + ns + "/configmaps", "", 403,
			`configmaps is forbidden: User "` + robot + `" cannot list resource "configmaps" in API group "" in the namespace "` + ns + `"`},
		{"a subresource rule", "erin", nil, "PATCH", "/apis/apps/v1/namespaces/" + ns + "/replicasets/rs/scale", `{"spec":{"replicas":2}}`, 404, ""},
		{"a subresource rule does not grant the resource", "erin", nil, "GET", "/apis/apps/v1/namespaces/" + ns + "/replicasets/rs", "", 403,
			`replicasets.apps "rs" is forbidden: User "erin" cannot get resource "replicasets" in API group "apps" in the namespace "` + ns + `"`},
		{"a binding to a missing role says so", "frank", nil, "GET", pods, "", 403,
			`pods is forbidden: User "frank" cannot list resource "pods" in API group "" in the namespace "` + ns + `": RBAC: role.rbac.authorization.k8s.io "nope" not found`},
		{"nobody: cluster-scoped", "dave", nil, "GET", "/api/v1/nodes/n1", "", 403,
			`nodes "n1" is forbidden: User "dave" cannot get resource "nodes" in API group "" at the cluster scope`},
		{"nobody: a namespace is in its own namespace", "dave", nil, "GET", "/api/v1/namespaces/" + ns, "", 403,
			`namespaces "` + ns + `" is forbidden: User "dave" cannot get resource "namespaces" in API group "" in the namespace "` + ns + `"`},
		{"everyone authenticated: discovery", "dave", nil, "GET", "/apis", "", 200, ""},
		{"everyone authenticated: version", "dave", nil, "GET", "/version", "", 200, ""},
		{"not a non-resource URL nobody granted", "dave", nil, "GET", "/metrics", "", 403,
			`forbidden: User "dave" cannot get path "/metrics"`},
		{"system:masters may do anything", "root", []string{"system:masters"}, "GET", "/metrics", "", 200, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := srv.As(t, c.user, c.groups, c.method, c.path, c.body)
			require.Equal(t, c.code, resp.Code, resp.Body)
			if c.code != 403 {
				return
			}
			obj := resp.Obj(t)
			assert.Equal(t, c.message, obj["message"])
			assert.Equal(t, "Forbidden", obj["reason"])
			assert.Equal(t, "Status", obj["kind"])
		})
	}
}

// A refused write changes nothing.
func TestForbiddenWriteStoresNothing(t *testing.T) {
	ns := srv.NewNamespace(t)
	resp := srv.As(t, "mallory", nil, "POST", "/api/v1/namespaces/"+ns+"/configmaps", `{"metadata":{"name":"evil"}}`)
	require.Equal(t, http.StatusForbidden, resp.Code, resp.Body)
	assert.Equal(t, http.StatusNotFound, srv.Admin(t, "GET", "/api/v1/namespaces/"+ns+"/configmaps/evil", "").Code)
}

// The bootstrap policy is there at start, and the aggregated roles carry
// their selectors (their rules are the aggregation controller's).
func TestBootstrapPolicyIsReconciledAtStart(t *testing.T) {
	for _, name := range []string{"cluster-admin", "admin", "edit", "view", "system:discovery", "system:public-info-viewer",
		"system:basic-user", "system:kube-controller-manager", "system:kube-scheduler", "system:node",
		"system:controller:replicaset-controller", "system:controller:clusterrole-aggregation-controller", "system:controller:labeler"} {
		resp := srv.Admin(t, "GET", rbacV1+"/clusterroles/"+name, "")
		assert.Equal(t, http.StatusOK, resp.Code, name)
	}
	view := srv.Admin(t, "GET", rbacV1+"/clusterroles/view", "").Obj(t)
	assert.Equal(t, map[string]any{"clusterRoleSelectors": []any{map[string]any{"matchLabels": map[string]any{"rbac.authorization.k8s.io/aggregate-to-view": "true"}}}}, view["aggregationRule"])
	crb := srv.Admin(t, "GET", rbacV1+"/clusterrolebindings/cluster-admin", "").Obj(t)
	assert.Equal(t, []any{map[string]any{"kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": "system:masters"}}, crb["subjects"])
	labeler := srv.Admin(t, "GET", rbacV1+"/clusterroles/system:controller:labeler", "").Obj(t)
	assert.Equal(t, []any{map[string]any{"verbs": []any{"get", "list", "watch", "update"}, "apiGroups": []any{""}, "resources": []any{"configmaps"}}}, labeler["rules"],
		"the labeler's role is the tutorial's and nothing more")
}
