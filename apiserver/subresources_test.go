package apiserver

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func rsJSON(name string, replicas int) string {
	return fmt.Sprintf(`{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":%q},
		"spec":{"replicas":%d,"selector":{"matchLabels":{"app":"web"}},
		"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`, name, replicas)
}

func TestScaleGetPatchAndPutWithoutContentType(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/apps/v1/namespaces/" + ns + "/replicasets"
	rs := do(t, "POST", path, "", rsJSON("rs1", 2))
	require.Equal(t, http.StatusCreated, rs.Code, rs.Body)

	resp := do(t, "GET", path+"/rs1/scale", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	sc := resp.obj(t)
	assert.Equal(t, "Scale", sc["kind"])
	assert.Equal(t, "autoscaling/v1", sc["apiVersion"])
	assert.EqualValues(t, 2, get(sc, "spec", "replicas"))
	assert.Equal(t, "app=web", get(sc, "status", "selector"))
	assert.Equal(t, get(rs.obj(t), "metadata", "uid"), get(sc, "metadata", "uid"))

	resp = do(t, "PATCH", path+"/rs1/scale", mergePatchType, `{"spec":{"replicas":5}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 5, get(resp.obj(t), "spec", "replicas"))
	got := do(t, "GET", path+"/rs1", "", "").obj(t)
	assert.EqualValues(t, 5, get(got, "spec", "replicas"))
	assert.EqualValues(t, 2, get(got, "metadata", "generation"))

	// kubectl scale --current-replicas: GET scale, PUT it back with no Content-Type.
	cur := do(t, "GET", path+"/rs1/scale", "", "").obj(t)
	rv := get(cur, "metadata", "resourceVersion").(string)
	body := fmt.Sprintf(`{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"rs1","namespace":%q,"resourceVersion":%q},"spec":{"replicas":3}}`, ns, rv)
	resp = do(t, "PUT", path+"/rs1/scale", "none", body)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 3, get(resp.obj(t), "spec", "replicas"))

	// Same stale resourceVersion again: 409.
	resp = do(t, "PUT", path+"/rs1/scale", "none", body)
	require.Equal(t, http.StatusConflict, resp.Code, resp.Body)

	resp = do(t, "PATCH", path+"/rs1/scale", mergePatchType, `{"spec":{"replicas":-1}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Contains(t, resp.obj(t)["message"], "spec.replicas")
}

func TestBindingSetsNodeNameOnce(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", podJSON("p1")).Code)
	resp := do(t, "POST", path+"/p1/binding", "", `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"p1"},"target":{"kind":"Node","name":"n1"}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}`, resp.Body)

	pod := do(t, "GET", path+"/p1", "", "").obj(t)
	assert.Equal(t, "n1", get(pod, "spec", "nodeName"))

	resp = do(t, "POST", path+"/p1/binding", "", `{"metadata":{"name":"p1"},"target":{"kind":"Node","name":"n2"}}`)
	require.Equal(t, http.StatusConflict, resp.Code, resp.Body)
	assert.Equal(t, `Operation cannot be fulfilled on pods/binding "p1": pod p1 is already assigned to node "n1"`, resp.obj(t)["message"])
}

func TestReplicaSetSelectorMustMatchTemplate(t *testing.T) {
	ns := newNamespace(t)
	body := `{"metadata":{"name":"bad"},"spec":{"selector":{"matchLabels":{"app":"x"}},
		"template":{"metadata":{"labels":{"app":"y"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`
	resp := do(t, "POST", "/apis/apps/v1/namespaces/"+ns+"/replicasets", "", body)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Contains(t, resp.obj(t)["message"], "selector")
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

	pod := do(t, "GET", path+"/p1", "", "").obj(t)
	conds := get(pod, "status", "conditions").([]any)
	require.Len(t, conds, 1)
	c := conds[0].(map[string]any)
	assert.Equal(t, "True", c["status"])
	assert.Nil(t, c["reason"], "an Unschedulable reason does not survive the binding")
	assert.Nil(t, c["message"])
}
