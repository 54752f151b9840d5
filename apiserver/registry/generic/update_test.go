package generic_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUpdateThatChangesNothingKeepsResourceVersion(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	created := do(t, "POST", path, "", cmJSON("cm1", map[string]string{"a": "1"})).Obj(t)
	b, _ := json.Marshal(created)
	resp := do(t, "PUT", path+"/cm1", "", string(b))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, get(created, "metadata", "resourceVersion"), get(resp.Obj(t), "metadata", "resourceVersion"))
}

func TestGenerationBumpsOnSpecChangeOnly(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	created := do(t, "POST", path, "", podJSON("p1"))
	require.Equal(t, http.StatusCreated, created.Code, created.Body)

	// metadata-only change: generation stays 1
	resp := do(t, "PATCH", path+"/p1", mergePatchType, `{"metadata":{"labels":{"x":"y"}}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 1, get(resp.Obj(t), "metadata", "generation"))

	// status change through /status: generation stays 1
	resp = do(t, "PATCH", path+"/p1/status", mergePatchType, `{"status":{"phase":"Running"}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 1, get(resp.Obj(t), "metadata", "generation"))
	assert.Equal(t, "Running", get(resp.Obj(t), "status", "phase"))

	// spec change: generation 2
	resp = do(t, "PATCH", path+"/p1", jsonPatchType, `[{"op":"replace","path":"/spec/containers/0/image","value":"nginx:2"}]`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 2, get(resp.Obj(t), "metadata", "generation"))
}

func TestMainResourceIgnoresStatusAndStatusIgnoresSpec(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", podJSON("p1")).Code)

	resp := do(t, "PATCH", path+"/p1", mergePatchType, `{"status":{"phase":"Running"}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "Pending", get(resp.Obj(t), "status", "phase"))

	resp = do(t, "PATCH", path+"/p1/status", mergePatchType,
		`{"metadata":{"labels":{"s":"1"}},"spec":{"activeDeadlineSeconds":5},"status":{"phase":"Running"}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	obj := resp.Obj(t)
	assert.Equal(t, "Running", get(obj, "status", "phase"))
	assert.Nil(t, get(obj, "spec", "activeDeadlineSeconds"))
	assert.Equal(t, "1", get(obj, "metadata", "labels", "s"), "/status writes may change labels")

	got := do(t, "GET", path+"/p1/status", "", "")
	require.Equal(t, http.StatusOK, got.Code)
	assert.Equal(t, "Running", get(got.Obj(t), "status", "phase"))
}
