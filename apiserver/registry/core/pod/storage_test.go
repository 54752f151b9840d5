package pod_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBindingSetsNodeNameOnce(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", podJSON("p1")).Code)
	resp := do(t, "POST", path+"/p1/binding", "", `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"p1"},"target":{"kind":"Node","name":"n1"}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}`, resp.Body)

	pod := do(t, "GET", path+"/p1", "", "").Obj(t)
	assert.Equal(t, "n1", get(pod, "spec", "nodeName"))

	resp = do(t, "POST", path+"/p1/binding", "", `{"metadata":{"name":"p1"},"target":{"kind":"Node","name":"n2"}}`)
	require.Equal(t, http.StatusConflict, resp.Code, resp.Body)
	assert.Equal(t, `Operation cannot be fulfilled on pods/binding "p1": pod p1 is already assigned to node "n1"`, resp.Obj(t)["message"])
}

func TestBindingClearsAnEarlierUnschedulableReason(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", podJSON("p1")).Code)
	resp := do(t, "PATCH", path+"/p1/status", "application/merge-patch+json",
		`{"status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"0/1 nodes are available: 1 Insufficient cpu."}]}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	resp = do(t, "POST", path+"/p1/binding", "", `{"metadata":{"name":"p1"},"target":{"kind":"Node","name":"n1"}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)

	pod := do(t, "GET", path+"/p1", "", "").Obj(t)
	conds := get(pod, "status", "conditions").([]any)
	require.Len(t, conds, 1)
	c := conds[0].(map[string]any)
	assert.Equal(t, "True", c["status"])
	assert.Nil(t, c["reason"], "an Unschedulable reason does not survive the binding")
	assert.Nil(t, c["message"])
}
