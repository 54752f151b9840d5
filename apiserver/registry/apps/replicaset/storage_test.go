package replicaset_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScaleGetPatchAndPutWithoutContentType(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/apps/v1/namespaces/" + ns + "/replicasets"
	rs := do(t, "POST", path, "", rsJSON("rs1", 2))
	require.Equal(t, http.StatusCreated, rs.Code, rs.Body)

	resp := do(t, "GET", path+"/rs1/scale", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	sc := resp.Obj(t)
	assert.Equal(t, "Scale", sc["kind"])
	assert.Equal(t, "autoscaling/v1", sc["apiVersion"])
	assert.EqualValues(t, 2, get(sc, "spec", "replicas"))
	assert.Equal(t, "app=web", get(sc, "status", "selector"))
	assert.Equal(t, get(rs.Obj(t), "metadata", "uid"), get(sc, "metadata", "uid"))

	resp = do(t, "PATCH", path+"/rs1/scale", mergePatchType, `{"spec":{"replicas":5}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 5, get(resp.Obj(t), "spec", "replicas"))
	got := do(t, "GET", path+"/rs1", "", "").Obj(t)
	assert.EqualValues(t, 5, get(got, "spec", "replicas"))
	assert.EqualValues(t, 2, get(got, "metadata", "generation"))

	// kubectl scale --current-replicas: GET scale, PUT it back with no Content-Type.
	cur := do(t, "GET", path+"/rs1/scale", "", "").Obj(t)
	rv := get(cur, "metadata", "resourceVersion").(string)
	body := fmt.Sprintf(`{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"rs1","namespace":%q,"resourceVersion":%q},"spec":{"replicas":3}}`, ns, rv)
	resp = do(t, "PUT", path+"/rs1/scale", "none", body)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 3, get(resp.Obj(t), "spec", "replicas"))

	// Same stale resourceVersion again: 409.
	resp = do(t, "PUT", path+"/rs1/scale", "none", body)
	require.Equal(t, http.StatusConflict, resp.Code, resp.Body)

	resp = do(t, "PATCH", path+"/rs1/scale", mergePatchType, `{"spec":{"replicas":-1}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Contains(t, resp.Obj(t)["message"], "spec.replicas")
}

func TestReplicaSetSelectorMustMatchTemplate(t *testing.T) {
	ns := newNamespace(t)
	body := `{"metadata":{"name":"bad"},"spec":{"selector":{"matchLabels":{"app":"x"}},
		"template":{"metadata":{"labels":{"app":"y"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`
	resp := do(t, "POST", "/apis/apps/v1/namespaces/"+ns+"/replicasets", "", body)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Contains(t, resp.Obj(t)["message"], "selector")
}
