package handlers_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDeleteRemovesObjectAndReturnsIt(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", cmJSON("cm1", nil))
	resp := do(t, "DELETE", path+"/cm1", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "cm1", get(resp.Obj(t), "metadata", "name"))
	assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/cm1", "", "").Code)
}

func TestDeleteAcceptsClientGoBodyWithoutContentType(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", cmJSON("cm1", nil))
	resp := do(t, "DELETE", path+"/cm1", "none", `{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background"}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/cm1", "", "").Code)
}

func TestDeleteMissingIsNotFound(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "DELETE", "/api/v1/namespaces/"+ns+"/configmaps/ghost", "", "")
	require.Equal(t, http.StatusNotFound, resp.Code)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
		"message":"configmaps \"ghost\" not found","reason":"NotFound","details":{"name":"ghost","kind":"configmaps"},"code":404}`, resp.Body)
}

func TestDeleteCollectionHonoursLabelSelector(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", `{"metadata":{"name":"a","labels":{"app":"x"}}}`)
	do(t, "POST", path, "", `{"metadata":{"name":"b","labels":{"app":"x"}}}`)
	do(t, "POST", path, "", `{"metadata":{"name":"c","labels":{"app":"y"}}}`)
	resp := do(t, "DELETE", path+"?labelSelector=app%3Dx", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Len(t, resp.Obj(t)["items"], 2)
	list := do(t, "GET", path, "", "").Obj(t)
	items := list["items"].([]any)
	require.Len(t, items, 1)
	assert.Equal(t, "c", get(items[0].(map[string]any), "metadata", "name"))
}
