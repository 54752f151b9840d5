package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreateTwiceIsAlreadyExists(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON("dup", nil)).Code)
	resp := do(t, "POST", path, "", cmJSON("dup", nil))
	require.Equal(t, http.StatusConflict, resp.Code)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
		"message":"configmaps \"dup\" already exists","reason":"AlreadyExists",
		"details":{"name":"dup","kind":"configmaps"},"code":409}`, resp.Body)
}

func TestCreateInMissingNamespaceIsNotFound(t *testing.T) {
	resp := do(t, "POST", "/api/v1/namespaces/nope-missing/configmaps", "", cmJSON("x", nil))
	require.Equal(t, http.StatusNotFound, resp.Code, resp.Body)
	obj := resp.Obj(t)
	assert.Equal(t, "NotFound", obj["reason"])
	assert.Equal(t, `namespaces "nope-missing" not found`, obj["message"])
}

func TestCreateBodyMismatchIsBadRequest(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	for name, body := range map[string]string{
		"namespace": `{"metadata":{"name":"x","namespace":"other"}}`,
		"kind":      `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x"}}`,
		"type":      `{"metadata":{"name":"x"},"data":"notamap"}`,
		"malformed": `{"metadata":`,
	} {
		t.Run(name, func(t *testing.T) {
			resp := do(t, "POST", path, "", body)
			require.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
			assert.Equal(t, "BadRequest", resp.Obj(t)["reason"])
		})
	}
}

func TestCreateInvalidNameIsInvalid(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", cmJSON("Bad_Name", nil))
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	obj := resp.Obj(t)
	assert.Equal(t, "Invalid", obj["reason"])
	assert.Equal(t, "metadata.name", get(obj, "details", "causes").([]any)[0].(map[string]any)["field"])
}

func TestCreateInInvalidNamespaceNameIsInvalid(t *testing.T) {
	resp := do(t, "POST", "/api/v1/namespaces", "", `{"metadata":{"name":"Bad_NS"}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, "Invalid", resp.Obj(t)["reason"])
}

func TestBodyOverThreeMebibytesIsTooLarge(t *testing.T) {
	ns := newNamespace(t)
	big := `{"metadata":{"name":"big"},"data":{"a":"` + strings.Repeat("x", 3<<20) + `"}}`
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", big)
	require.Equal(t, http.StatusRequestEntityTooLarge, resp.Code)
	assert.Equal(t, "RequestEntityTooLarge", resp.Obj(t)["reason"])
}
