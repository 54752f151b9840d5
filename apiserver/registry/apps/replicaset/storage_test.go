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

// An apply through /scale takes .spec.replicas from the ReplicaSet's
// creator (with force) and is recorded in the ReplicaSet's managedFields
// as Kubernetes' ScaleHandler writes it: the applier's entry in apps/v1,
// subresource scale, no time.
func TestScaleApplyTakesReplicasFromTheCreator(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/apps/v1/namespaces/" + ns + "/replicasets"
	require.Equal(t, http.StatusCreated, do(t, "POST", path+"?fieldManager=creator", "", rsJSON("rs1", 2)).Code)
	scale := `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"rs1"},"spec":{"replicas":4}}`

	resp := do(t, "PATCH", path+"/rs1/scale?fieldManager=scaler", applyPatchType, scale)
	require.Equal(t, http.StatusConflict, resp.Code, resp.Body)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "creator" using autoscaling/v1: .spec.replicas`, resp.Obj(t)["message"])

	resp = do(t, "PATCH", path+"/rs1/scale?fieldManager=scaler&force=true", applyPatchType, scale)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 4, get(resp.Obj(t), "spec", "replicas"))
	rs := do(t, "GET", path+"/rs1", "", "").Obj(t)
	assert.EqualValues(t, 4, get(rs, "spec", "replicas"))
	byManager := map[string]map[string]any{}
	for _, e := range get(rs, "metadata", "managedFields").([]any) {
		byManager[e.(map[string]any)["manager"].(string)] = e.(map[string]any)
	}
	assert.Equal(t, map[string]any{"manager": "scaler", "operation": "Apply", "apiVersion": "apps/v1", "subresource": "scale",
		"fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:spec": map[string]any{"f:replicas": map[string]any{}}}}, byManager["scaler"])
	assert.NotContains(t, get(byManager["creator"], "fieldsV1", "f:spec"), "f:replicas")
}

// Bad applies to /scale are refused with Kubernetes' answers and change
// nothing.
func TestScaleApplyRefusesBadInputAndStoresNothing(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/apps/v1/namespaces/" + ns + "/replicasets"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", rsJSON("rs1", 2)).Code)
	before := do(t, "GET", path+"/rs1", "", "").Obj(t)
	for name, tc := range map[string]struct {
		query, body string
		code        int
		message     string
	}{
		"no field manager": {"", `{"apiVersion":"autoscaling/v1","kind":"Scale","spec":{"replicas":3}}`, http.StatusUnprocessableEntity,
			`PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`},
		"the object's kind, not Scale": {"?fieldManager=m", `{"apiVersion":"apps/v1","kind":"ReplicaSet","spec":{"replicas":3}}`, http.StatusBadRequest,
			"Incorrect version specified in apply patch. Specified patch version: apps/v1, expected: autoscaling/v1"},
		"negative replicas": {"?fieldManager=m&force=true", `{"apiVersion":"autoscaling/v1","kind":"Scale","spec":{"replicas":-1}}`, http.StatusUnprocessableEntity,
			"spec.replicas"},
		"a field Scale does not have": {"?fieldManager=m&force=true", `{"apiVersion":"autoscaling/v1","kind":"Scale","spec":{"replicas":3,"paused":true}}`, http.StatusUnprocessableEntity,
			`Scale.autoscaling "rs1" is invalid: spec.paused: field not declared in schema`},
		"not YAML": {"?fieldManager=m", "{spec: [", http.StatusBadRequest, "error decoding patch"},
	} {
		t.Run(name, func(t *testing.T) {
			resp := do(t, "PATCH", path+"/rs1/scale"+tc.query, applyPatchType, tc.body)
			require.Equal(t, tc.code, resp.Code, resp.Body)
			assert.Contains(t, resp.Obj(t)["message"], tc.message)
		})
	}
	after := do(t, "GET", path+"/rs1", "", "").Obj(t)
	assert.Equal(t, get(before, "metadata", "resourceVersion"), get(after, "metadata", "resourceVersion"), "nothing was stored")

	resp := do(t, "PATCH", path+"/missing/scale?fieldManager=m", applyPatchType, `{"apiVersion":"autoscaling/v1","kind":"Scale","spec":{"replicas":3}}`)
	assert.Equal(t, http.StatusNotFound, resp.Code, "an apply to a missing object's scale creates nothing: %s", resp.Body)
}
