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
