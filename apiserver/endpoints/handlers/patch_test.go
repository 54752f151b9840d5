package handlers_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestStrategicMergePatchMergesContainersByName(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/apps/v1/namespaces/" + ns + "/replicasets"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", rsJSON("rs1", 2)).Code)
	resp := do(t, "PATCH", path+"/rs1", strategicPatchType,
		`{"metadata":{"labels":{"added":"yes"}},"spec":{"template":{"spec":{"containers":[{"name":"extra","image":"busybox"}]}}}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	var rs api.ReplicaSet
	resp.Decode(t, &rs)
	require.Len(t, rs.Spec.Template.Spec.Containers, 2, "the patch adds a container by name instead of replacing the list")
	assert.Equal(t, "yes", rs.Labels["added"])
	resp = do(t, "PATCH", path+"/rs1", strategicPatchType, `{"spec":{"template":{"spec":{"containers":[{"$patch":"explode","name":"x"}]}}}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
}

func TestPatchThatProducesInvalidObjectIsInvalid(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/apps/v1/namespaces/" + ns + "/replicasets"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", rsJSON("rs1", 2)).Code)
	resp := do(t, "PATCH", path+"/rs1", mergePatchType, `{"spec":{"replicas":-1}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, "Invalid", resp.Obj(t)["reason"])
}

func TestUnsupportedMediaTypes(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", cmJSON("cm1", nil))
	for _, ct := range []string{"text/plain", "application/yaml"} {
		resp := do(t, "PATCH", path+"/cm1", ct, `{}`)
		require.Equal(t, http.StatusUnsupportedMediaType, resp.Code, ct)
		obj := resp.Obj(t)
		assert.Equal(t, "UnsupportedMediaType", obj["reason"])
		assert.Equal(t, "Status", obj["kind"])
	}
	resp := do(t, "POST", path, "text/plain", cmJSON("cm2", nil))
	require.Equal(t, http.StatusUnsupportedMediaType, resp.Code, resp.Body)
	assert.Equal(t, "the body of the request was in an unknown format - accepted media types include: "+
		"application/json, application/yaml, application/vnd.kubernetes.protobuf", resp.Obj(t)["message"])
	assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/cm2", "", "").Code, "nothing was stored")
}
