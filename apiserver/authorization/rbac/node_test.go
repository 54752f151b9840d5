package rbac_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A kubelet may write its own Node, its own Lease and the status of the
// pods bound to it, and read only the secrets those pods use.
func TestNodeAuthorizerAndNodeRestriction(t *testing.T) {
	ns := srv.NewNamespace(t)
	require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", "/api/v1/namespaces/"+ns+"/serviceaccounts", `{"metadata":{"name":"default"}}`).Code)
	for _, p := range []struct{ name, node, secret string }{{"on-n1", "n1", "s1"}, {"on-n2", "n2", "s2"}} {
		resp := srv.Admin(t, "POST", "/api/v1/namespaces/"+ns+"/pods", `{"metadata":{"name":"`+p.name+`"},"spec":{"nodeName":"`+p.node+`",
			"containers":[{"name":"c","image":"i","env":[{"name":"X","valueFrom":{"secretKeyRef":{"name":"`+p.secret+`","key":"k"}}}]}]}}`)
		require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
		require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", "/api/v1/namespaces/"+ns+"/secrets", `{"metadata":{"name":"`+p.secret+`"}}`).Code)
	}
	kubelet := func(method, path, body string) response {
		return srv.As(t, "system:node:n1", []string{"system:nodes"}, method, path, body)
	}
	for _, c := range []struct {
		name, method, path, body string
		code                     int
		message                  string
	}{
		{"own node", "POST", "/api/v1/nodes", `{"metadata":{"name":"n1"}}`, 201, ""},
		{"another node", "POST", "/api/v1/nodes", `{"metadata":{"name":"n2"}}`, 403,
			`nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"`},
		{"own lease", "POST", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases", `{"metadata":{"name":"n1"}}`, 201, ""},
		{"another lease", "POST", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases", `{"metadata":{"name":"n2"}}`, 403,
			`leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node`},
		{"a lease elsewhere", "POST", "/apis/coordination.k8s.io/v1/namespaces/" + ns + "/leases", `{"metadata":{"name":"n1"}}`, 403,
			`leases.coordination.k8s.io "n1" is forbidden: can only access leases in the "kube-node-lease" namespace`},
		{"status of its pod", "PATCH", "/api/v1/namespaces/" + ns + "/pods/on-n1/status", `{"status":{"phase":"Running"}}`, 200, ""},
		{"status of another node's pod", "PATCH", "/api/v1/namespaces/" + ns + "/pods/on-n2/status", `{"status":{"phase":"Running"}}`, 403,
			`pods "on-n2" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself`},
		{"delete another node's pod", "DELETE", "/api/v1/namespaces/" + ns + "/pods/on-n2", "", 403,
			`pods "on-n2" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself`},
		{"create a pod", "POST", "/api/v1/namespaces/" + ns + "/pods", `{"metadata":{"name":"x"},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"i"}]}}`, 403,
			`pods "x" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods`},
		{"a secret its pod uses", "GET", "/api/v1/namespaces/" + ns + "/secrets/s1", "", 200, ""},
		{"a secret another node's pod uses", "GET", "/api/v1/namespaces/" + ns + "/secrets/s2", "", 403,
			`secrets "s2" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "` + ns + `": no relationship found between node 'n1' and this object`},
		{"listing secrets", "GET", "/api/v1/namespaces/" + ns + "/secrets", "", 403,
			`secrets is forbidden: User "system:node:n1" cannot list resource "secrets" in API group "" in the namespace "` + ns + `": can only get individual resources of this type`},
		{"reading pods (NodeRules)", "GET", "/api/v1/namespaces/" + ns + "/pods", "", 200, ""},
		{"writing a deployment", "POST", "/apis/apps/v1/namespaces/" + ns + "/deployments", `{"metadata":{"name":"d"}}`, 403,
			`deployments.apps is forbidden: User "system:node:n1" cannot create resource "deployments" in API group "apps" in the namespace "` + ns + `"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := kubelet(c.method, c.path, c.body)
			require.Equal(t, c.code, resp.Code, resp.Body)
			if c.message != "" {
				assert.Equal(t, c.message, resp.Obj(t)["message"])
			}
		})
	}
}

// ServiceAccount admission: a pod gets the default account, and is
// refused until the account exists.
func TestServiceAccountAdmission(t *testing.T) {
	ns := srv.NewNamespace(t)
	pods := "/api/v1/namespaces/" + ns + "/pods"
	pod := `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`
	resp := srv.Admin(t, "POST", pods, pod)
	require.Equal(t, http.StatusForbidden, resp.Code, resp.Body)
	assert.Equal(t, `pods "p" is forbidden: error looking up service account `+ns+`/default: serviceaccount "default" not found`, resp.Obj(t)["message"])

	resp = srv.Admin(t, "POST", pods, `{"metadata":{"name":"r"},"spec":{"serviceAccountName":"robot","containers":[{"name":"c","image":"i"}]}}`)
	require.Equal(t, http.StatusForbidden, resp.Code, resp.Body)
	assert.Equal(t, `pods "r" is forbidden: error looking up service account `+ns+`/robot: serviceaccount "robot" not found`, resp.Obj(t)["message"])

	require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", "/api/v1/namespaces/"+ns+"/serviceaccounts", `{"metadata":{"name":"default"}}`).Code)
	resp = srv.Admin(t, "POST", pods, pod)
	require.Equal(t, http.StatusCreated, resp.Code, "an account created a moment ago is found live: %s", resp.Body)
	assert.Equal(t, "default", resp.Obj(t)["spec"].(map[string]any)["serviceAccountName"])
}

// The Node authorizer follows the pods as they are bound and deleted: a
// kubelet may read a pod's secret once the pod is bound to its node, and
// not after the pod is gone.
func TestNodeAuthorizerFollowsBindingAndDeletion(t *testing.T) {
	ns := srv.NewNamespace(t)
	require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", "/api/v1/namespaces/"+ns+"/serviceaccounts", `{"metadata":{"name":"default"}}`).Code)
	require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", "/api/v1/namespaces/"+ns+"/secrets", `{"metadata":{"name":"s3"}}`).Code)
	resp := srv.Admin(t, "POST", "/api/v1/namespaces/"+ns+"/pods", `{"metadata":{"name":"later"},"spec":{
		"containers":[{"name":"c","image":"i","env":[{"name":"X","valueFrom":{"secretKeyRef":{"name":"s3","key":"k"}}}]}]}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	secret := "/api/v1/namespaces/" + ns + "/secrets/s3"
	kubelet := func() int { return srv.As(t, "system:node:n3", []string{"system:nodes"}, "GET", secret, "").Code }
	require.Equal(t, http.StatusForbidden, kubelet(), "the pod is bound to no node yet")

	resp = srv.Admin(t, "POST", "/api/v1/namespaces/"+ns+"/pods/later/binding",
		`{"metadata":{"name":"later"},"target":{"kind":"Node","name":"n3"}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	require.Eventually(t, func() bool { return kubelet() == http.StatusOK }, 20*time.Second, 10*time.Millisecond,
		"bound to n3: its kubelet may read the secret")
	require.Equal(t, http.StatusForbidden, srv.As(t, "system:node:n4", []string{"system:nodes"}, "GET", secret, "").Code, "another kubelet may not")

	require.Equal(t, http.StatusOK, srv.Admin(t, "DELETE", "/api/v1/namespaces/"+ns+"/pods/later?gracePeriodSeconds=0", "").Code)
	require.Eventually(t, func() bool { return kubelet() == http.StatusForbidden }, 20*time.Second, 10*time.Millisecond,
		"the pod is gone: so is the relationship")
}
