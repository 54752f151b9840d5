package rbac_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver/authentication/user"
)

const reviews = "/apis/authorization.k8s.io/v1/"

func TestAccessReviews(t *testing.T) {
	ns := srv.NewNamespace(t)
	require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", rbacV1+"/namespaces/"+ns+"/roles",
		`{"metadata":{"name":"cm-reader"},"rules":[{"verbs":["get","list"],"apiGroups":[""],"resources":["configmaps"]}]}`).Code)
	require.Equal(t, http.StatusCreated, srv.Admin(t, "POST", rbacV1+"/namespaces/"+ns+"/rolebindings",
		`{"metadata":{"name":"gus"},"roleRef":{"kind":"Role","name":"cm-reader"},"subjects":[{"kind":"User","name":"gus"}]}`).Code)
	require.Eventually(t, func() bool {
		return srv.As(t, "gus", nil, "GET", "/api/v1/namespaces/"+ns+"/configmaps", "").Code == http.StatusOK
	}, 20*time.Second, 20*time.Millisecond)

	ssar := func(verb, resource string) map[string]any {
		resp := srv.As(t, "gus", nil, "POST", reviews+"selfsubjectaccessreviews",
			`{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":{"namespace":"`+ns+`","verb":"`+verb+`","resource":"`+resource+`"}}}`)
		require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
		obj := resp.Obj(t)
		assert.Equal(t, "SelfSubjectAccessReview", obj["kind"])
		return obj["status"].(map[string]any)
	}
	assert.Equal(t, true, ssar("list", "configmaps")["allowed"])
	assert.Equal(t, false, ssar("delete", "configmaps")["allowed"])
	assert.Equal(t, false, ssar("get", "secrets")["allowed"])

	t.Run("non-resource", func(t *testing.T) {
		resp := srv.As(t, "gus", nil, "POST", reviews+"selfsubjectaccessreviews",
			`{"spec":{"nonResourceAttributes":{"path":"/version","verb":"get"}}}`)
		require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
		assert.Equal(t, true, resp.Obj(t)["status"].(map[string]any)["allowed"])
	})

	t.Run("rules review", func(t *testing.T) {
		resp := srv.As(t, "gus", nil, "POST", reviews+"selfsubjectrulesreviews", `{"spec":{"namespace":"`+ns+`"}}`)
		require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
		st := resp.Obj(t)["status"].(map[string]any)
		assert.Contains(t, st["resourceRules"], map[string]any{"verbs": []any{"get", "list"}, "apiGroups": []any{""}, "resources": []any{"configmaps"}})
		assert.Contains(t, st["resourceRules"], map[string]any{"verbs": []any{"create"}, "apiGroups": []any{"authorization.k8s.io"},
			"resources": []any{"selfsubjectaccessreviews", "selfsubjectrulesreviews"}}, "system:basic-user's rule")
		assert.NotEmpty(t, st["nonResourceRules"], "system:discovery's rules")
		assert.Equal(t, false, st["incomplete"])
	})

	t.Run("subject review needs its own permission", func(t *testing.T) {
		body := `{"spec":{"user":"gus","resourceAttributes":{"namespace":"` + ns + `","verb":"get","resource":"configmaps"}}}`
		resp := srv.As(t, "gus", nil, "POST", reviews+"subjectaccessreviews", body)
		require.Equal(t, http.StatusForbidden, resp.Code, resp.Body)
		assert.Equal(t, `subjectaccessreviews.authorization.k8s.io is forbidden: User "gus" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope`, resp.Obj(t)["message"])
		resp = srv.Admin(t, "POST", reviews+"subjectaccessreviews", body)
		require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
		assert.Equal(t, true, resp.Obj(t)["status"].(map[string]any)["allowed"])
		resp = srv.Admin(t, "POST", reviews+"subjectaccessreviews",
			`{"spec":{"groups":["`+user.SystemPrivilegedGroup+`"],"nonResourceAttributes":{"path":"/metrics","verb":"get"}}}`)
		require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
		assert.Equal(t, true, resp.Obj(t)["status"].(map[string]any)["allowed"], "system:masters")
	})

	t.Run("invalid", func(t *testing.T) {
		resp := srv.As(t, "gus", nil, "POST", reviews+"selfsubjectaccessreviews", `{"spec":{}}`)
		require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
		assert.Equal(t, `SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified`, resp.Obj(t)["message"])
		resp = srv.Admin(t, "POST", reviews+"subjectaccessreviews", `{"spec":{"nonResourceAttributes":{"path":"/x","verb":"get"}}}`)
		require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
		assert.Contains(t, resp.Obj(t)["message"], `spec.user: Invalid value: "": at least one of user or group must be specified`)
		assert.Equal(t, http.StatusMethodNotAllowed, srv.Admin(t, "GET", reviews+"selfsubjectaccessreviews", "").Code)
	})
}
