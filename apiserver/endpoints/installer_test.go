package endpoints_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnknownGroupIsPlainNotFoundAndUnknownResourceIsStatus(t *testing.T) {
	resp := do(t, "GET", "/apis/nope.example.com/v1/widgets", "", "")
	require.Equal(t, http.StatusNotFound, resp.Code)
	assert.NotContains(t, resp.Body, `"kind":"Status"`)

	resp = do(t, "GET", "/apis/apps/v1/widgets", "", "")
	require.Equal(t, http.StatusNotFound, resp.Code)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
		"message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}`, resp.Body)
}

func TestPostToObjectURLIsMethodNotAllowed(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps/x", "", cmJSON("x", nil))
	require.Equal(t, http.StatusMethodNotAllowed, resp.Code, resp.Body)
	assert.Equal(t, "MethodNotAllowed", resp.Obj(t)["reason"])
}

// pods/NAME/binding takes only a POST. Kubernetes registers no other route
// for it, so a PATCH (an apply, as here, or any other) is go-restful's 405,
// written as this generic Status.
func TestApplyToBindingIsKubernetesMethodNotAllowed(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "PATCH", "/api/v1/namespaces/"+ns+"/pods/p/binding?fieldManager=m", "application/apply-patch+yaml",
		`{"apiVersion":"v1","kind":"Binding","metadata":{"name":"p"},"target":{"kind":"Node","name":"n"}}`)
	require.Equal(t, http.StatusMethodNotAllowed, resp.Code, resp.Body)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
		"message":"the server does not allow this method on the requested resource","reason":"MethodNotAllowed","details":{},"code":405}`, resp.Body)
}
