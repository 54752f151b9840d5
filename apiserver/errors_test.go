package apiserver

import (
	"net/http"
	"strings"
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

func TestGroupQualifiedNotFound(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "GET", "/apis/apps/v1/namespaces/"+ns+"/replicasets/x", "", "")
	require.Equal(t, http.StatusNotFound, resp.Code)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
		"message":"replicasets.apps \"x\" not found","reason":"NotFound","details":{"name":"x","group":"apps","kind":"replicasets"},"code":404}`, resp.Body)
}

func TestBodyOverThreeMebibytesIsTooLarge(t *testing.T) {
	ns := newNamespace(t)
	big := `{"metadata":{"name":"big"},"data":{"a":"` + strings.Repeat("x", 3<<20) + `"}}`
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", big)
	require.Equal(t, http.StatusRequestEntityTooLarge, resp.Code)
	assert.Equal(t, "RequestEntityTooLarge", resp.obj(t)["reason"])
}

func TestUnsupportedMediaTypes(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", cmJSON("cm1", nil))
	for _, ct := range []string{"text/plain", "application/apply-patch+yaml"} {
		resp := do(t, "PATCH", path+"/cm1", ct, `{}`)
		require.Equal(t, http.StatusUnsupportedMediaType, resp.Code, ct)
		obj := resp.obj(t)
		assert.Equal(t, "UnsupportedMediaType", obj["reason"])
		assert.Equal(t, "Status", obj["kind"])
	}
	resp := do(t, "PATCH", path+"/cm1", applyPatchType, `{}`)
	assert.Contains(t, resp.obj(t)["message"], "server-side apply is not supported by kubeloop")
	resp = do(t, "POST", path, "application/yaml", "metadata: {}")
	assert.Equal(t, http.StatusUnsupportedMediaType, resp.Code)
}

func TestPatchThatProducesInvalidObjectIsInvalid(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/apps/v1/namespaces/" + ns + "/replicasets"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", rsJSON("rs1", 2)).Code)
	resp := do(t, "PATCH", path+"/rs1", mergePatchType, `{"spec":{"replicas":-1}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, "Invalid", resp.obj(t)["reason"])
}

func TestListSelectorsAndPaging(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	for _, n := range []string{"a", "b", "c"} {
		do(t, "POST", path, "", `{"metadata":{"name":"`+n+`","labels":{"l":"`+n+`"}}}`)
	}
	list := do(t, "GET", path+"?labelSelector=l+in+(a,c)", "", "").obj(t)
	assert.Equal(t, "ConfigMapList", list["kind"])
	assert.Len(t, list["items"], 2)

	list = do(t, "GET", path+"?fieldSelector=metadata.name%3Db", "", "").obj(t)
	assert.Len(t, list["items"], 1)

	resp := do(t, "GET", path+"?fieldSelector=spec.foo%3Dx", "", "")
	require.Equal(t, http.StatusBadRequest, resp.Code)
	assert.Equal(t, "field label not supported: spec.foo", resp.obj(t)["message"])

	resp = do(t, "GET", path+"?labelSelector=a%20in%20(", "", "")
	assert.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)

	page := do(t, "GET", path+"?limit=2", "", "").obj(t)
	assert.Len(t, page["items"], 2)
	cont := get(page, "metadata", "continue").(string)
	require.NotEmpty(t, cont)
	rest := do(t, "GET", path+"?limit=2&continue="+cont, "", "").obj(t)
	assert.Len(t, rest["items"], 1)
	assert.Equal(t, get(page, "metadata", "resourceVersion"), get(rest, "metadata", "resourceVersion"))

	resp = do(t, "GET", path+"?limit=2&continue=garbage!!", "", "")
	assert.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
}

func TestPodFieldSelectorOnNodeName(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	do(t, "POST", path, "", podJSON("p1"))
	do(t, "POST", path, "", podJSON("p2"))
	// The list spans every namespace and other tests bind pods too: a node
	// name of this test's own keeps their pods out of the selection.
	node := ns + "-node"
	require.Equal(t, http.StatusCreated, do(t, "POST", path+"/p1/binding", "", `{"target":{"name":"`+node+`"}}`).Code)
	list := do(t, "GET", "/api/v1/pods?fieldSelector=spec.nodeName%3D"+node, "", "").obj(t)
	items := list["items"].([]any)
	require.Len(t, items, 1)
	assert.Equal(t, "p1", get(items[0].(map[string]any), "metadata", "name"))
}
