package apiserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreateSetsServerOwnedMetadataAndIgnoresClientValues(t *testing.T) {
	ns := newNamespace(t)
	body := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","uid":"mine","creationTimestamp":"2001-01-01T00:00:00Z","generation":7},"data":{"a":"b"}}`
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", body)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	obj := resp.obj(t)
	assert.Equal(t, "ConfigMap", obj["kind"])
	assert.Equal(t, "v1", obj["apiVersion"])
	assert.NotEqual(t, "mine", get(obj, "metadata", "uid"))
	assert.Len(t, get(obj, "metadata", "uid"), 36)
	assert.NotEqual(t, "2001-01-01T00:00:00Z", get(obj, "metadata", "creationTimestamp"))
	assert.Nil(t, get(obj, "metadata", "generation"), "kinds without spec have no generation")
	assert.NotEmpty(t, get(obj, "metadata", "resourceVersion"))
	assert.Equal(t, ns, get(obj, "metadata", "namespace"))

	got := do(t, "GET", "/api/v1/namespaces/"+ns+"/configmaps/cm1", "", "")
	require.Equal(t, http.StatusOK, got.Code)
	assert.Equal(t, get(obj, "metadata", "uid"), get(got.obj(t), "metadata", "uid"))
}

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

func TestCreateWithGenerateNameAppendsFiveCharacters(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", `{"metadata":{"generateName":"web-"}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	name := get(resp.obj(t), "metadata", "name").(string)
	assert.Regexp(t, `^web-[a-z0-9]{5}$`, name)
}

func TestCreatePodGetsGenerationOneAndResetsStatus(t *testing.T) {
	ns := newNamespace(t)
	body := `{"metadata":{"name":"p1"},"spec":{"containers":[{"name":"c","image":"nginx"}]},"status":{"phase":"Running","podIP":"1.2.3.4"}}`
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/pods", "", body)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	obj := resp.obj(t)
	assert.EqualValues(t, 1, get(obj, "metadata", "generation"))
	assert.Nil(t, get(obj, "status", "podIP"))
	assert.Equal(t, "Pending", get(obj, "status", "phase"))
}

func TestCreateInMissingNamespaceIsNotFound(t *testing.T) {
	resp := do(t, "POST", "/api/v1/namespaces/nope-missing/configmaps", "", cmJSON("x", nil))
	require.Equal(t, http.StatusNotFound, resp.Code, resp.Body)
	obj := resp.obj(t)
	assert.Equal(t, "NotFound", obj["reason"])
	assert.Equal(t, `namespaces "nope-missing" not found`, obj["message"])
}

func TestPostToObjectURLIsMethodNotAllowed(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps/x", "", cmJSON("x", nil))
	require.Equal(t, http.StatusMethodNotAllowed, resp.Code, resp.Body)
	assert.Equal(t, "MethodNotAllowed", resp.obj(t)["reason"])
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
			assert.Equal(t, "BadRequest", resp.obj(t)["reason"])
		})
	}
}

func TestCreateInvalidNameIsInvalid(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", cmJSON("Bad_Name", nil))
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	obj := resp.obj(t)
	assert.Equal(t, "Invalid", obj["reason"])
	assert.Equal(t, "metadata.name", get(obj, "details", "causes").([]any)[0].(map[string]any)["field"])
}

func TestCreateInInvalidNamespaceNameIsInvalid(t *testing.T) {
	resp := do(t, "POST", "/api/v1/namespaces", "", `{"metadata":{"name":"Bad_NS"}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, "Invalid", resp.obj(t)["reason"])
}

func TestListRightAfterWriteSeesIt(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	for i := range 5 {
		name := "cm" + string(rune('a'+i))
		require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON(name, nil)).Code)
		list := do(t, "GET", path, "", "").obj(t)
		assert.Len(t, list["items"], i+1)
	}
}
