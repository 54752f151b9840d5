package filters_test

import (
	"context"
	"crypto/tls"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver"
	"kubeloop/apiserver/apiservertest"
)

// whoami posts a SelfSubjectReview through hc with the given
// impersonation headers and returns the status it answered.
func whoami(t *testing.T, s *apiservertest.Server, hc *http.Client, h http.Header) (int, map[string]any) {
	t.Helper()
	resp := s.DoAs(t, hc, context.Background(), "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", "",
		`{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}`, h)
	return resp.Code, resp.Obj(t)
}

func TestSelfSubjectReviewIsTheAuthenticatedUser(t *testing.T) {
	code, review := whoami(t, srv, srv.AsUser(t, "alice", "dev", "ops"), nil)
	require.Equal(t, http.StatusCreated, code, review)
	assert.Equal(t, "SelfSubjectReview", review["kind"])
	assert.Equal(t, "alice", apiservertest.Get(review, "status", "userInfo", "username"))
	assert.Equal(t, []any{"dev", "ops", "system:authenticated"}, apiservertest.Get(review, "status", "userInfo", "groups"))

	_, review = whoami(t, srv, srv.AsUser(t, ""), nil)
	assert.Equal(t, "system:anonymous", apiservertest.Get(review, "status", "userInfo", "username"))
	assert.Equal(t, []any{"system:unauthenticated"}, apiservertest.Get(review, "status", "userInfo", "groups"))
}

// Impersonation under RBAC: alice may impersonate the user bob and the
// group dev and nothing else; what she may not impersonate is 403 with
// Kubernetes' message and changes nothing.
func TestImpersonationIsAuthorizedWithTheImpersonateVerb(t *testing.T) {
	s, err := apiservertest.Start(srv.Etcd, apiserver.Config{AuthorizationModes: []string{apiserver.ModeRBAC}})
	require.NoError(t, err)
	t.Cleanup(s.API.Close)
	require.Equal(t, http.StatusCreated, s.Do(t, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", "", `{
		"metadata":{"name":"impersonate-bob"},
		"rules":[{"apiGroups":[""],"resources":["users"],"verbs":["impersonate"],"resourceNames":["bob"]},
		         {"apiGroups":[""],"resources":["groups"],"verbs":["impersonate"],"resourceNames":["dev"]},
		         {"apiGroups":["authentication.k8s.io"],"resources":["userextras/scopes"],"verbs":["impersonate"]}]}`).Code)
	require.Equal(t, http.StatusCreated, s.Do(t, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", "", `{
		"metadata":{"name":"alice-impersonates-bob"},
		"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"impersonate-bob"},
		"subjects":[{"kind":"User","name":"alice"}]}`).Code)
	alice := s.AsUser(t, "alice")

	code, review := whoami(t, s, alice, http.Header{"Impersonate-User": {"bob"}, "Impersonate-Group": {"dev"}, "Impersonate-Extra-Scopes": {"view"}})
	require.Equal(t, http.StatusCreated, code, review)
	assert.Equal(t, "bob", apiservertest.Get(review, "status", "userInfo", "username"))
	assert.Equal(t, []any{"dev", "system:authenticated"}, apiservertest.Get(review, "status", "userInfo", "groups"))
	assert.Equal(t, map[string]any{"scopes": []any{"view"}}, apiservertest.Get(review, "status", "userInfo", "extra"))

	// What the impersonated user may do is what counts: bob may not list.
	resp := s.DoAs(t, alice, context.Background(), "GET", "/api/v1/namespaces/default/configmaps", "", "", http.Header{"Impersonate-User": {"bob"}})
	require.Equal(t, http.StatusForbidden, resp.Code)
	assert.Equal(t, `configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"`, resp.Obj(t)["message"])

	before := s.EtcdRevision(t)
	resp = s.DoAs(t, alice, context.Background(), "POST", "/api/v1/namespaces/default/configmaps", "", cmJSON("as-carol", nil), http.Header{"Impersonate-User": {"carol"}})
	require.Equal(t, http.StatusForbidden, resp.Code)
	assert.Equal(t, `users "carol" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope`, resp.Obj(t)["message"])
	resp = s.DoAs(t, alice, context.Background(), "POST", "/api/v1/namespaces/default/configmaps", "", cmJSON("as-admins", nil),
		http.Header{"Impersonate-User": {"bob"}, "Impersonate-Group": {"system:masters"}})
	require.Equal(t, http.StatusForbidden, resp.Code, "a group she may not impersonate")
	assert.Equal(t, `groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope`, resp.Obj(t)["message"])
	assert.Equal(t, before, s.EtcdRevision(t), "nothing was written")

	code, review = whoami(t, s, alice, http.Header{"Impersonate-Group": {"dev"}})
	assert.Equal(t, http.StatusBadRequest, code, "a group without a user")
	assert.Equal(t, "BadRequest", review["reason"])

	// The admin may impersonate anyone, service accounts included.
	code, review = whoami(t, s, s.HTTPClient(), http.Header{"Impersonate-User": {"system:serviceaccount:default:builder"}})
	require.Equal(t, http.StatusCreated, code, review)
	assert.Equal(t, "system:serviceaccount:default:builder", apiservertest.Get(review, "status", "userInfo", "username"))
	assert.Equal(t, []any{"system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"},
		apiservertest.Get(review, "status", "userInfo", "groups"))
}

// A certificate of the right CA that is not for client authentication
// (a serving certificate) authenticates nobody: 401, nothing written.
func TestServingCertificateIsNoClientCertificate(t *testing.T) {
	serving, err := srv.CA.IssueServing("not-a-client", []string{"localhost"})
	require.NoError(t, err)
	pair, err := tls.X509KeyPair(serving.CertPEM, serving.KeyPEM)
	require.NoError(t, err)
	tr := srv.HTTPClient().Transport.(*http.Transport).Clone()
	tr.TLSClientConfig.Certificates = []tls.Certificate{pair}
	before := srv.EtcdRevision(t)
	resp := srv.DoAs(t, &http.Client{Transport: tr}, context.Background(), "POST", "/api/v1/namespaces/default/configmaps", "", cmJSON("nope", nil), nil)
	require.Equal(t, http.StatusUnauthorized, resp.Code)
	assert.Equal(t, map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{},
		"status": "Failure", "message": "Unauthorized", "reason": "Unauthorized", "code": float64(401)}, resp.Obj(t))
	assert.Equal(t, before, srv.EtcdRevision(t))
}
