package deployment_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreateDefaultsLikeKubernetesAndIgnoresStatus(t *testing.T) {
	path := deploymentsPath(t)
	body := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
		"spec":{"selector":{"matchLabels":{"app":"web"}},
		"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}},
		"status":{"replicas":7,"readyReplicas":7}}`
	resp := do(t, "POST", path, "", body)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	d := resp.Obj(t)
	assert.EqualValues(t, 1, get(d, "metadata", "generation"))
	assert.EqualValues(t, 1, get(d, "spec", "replicas"))
	assert.Equal(t, "RollingUpdate", get(d, "spec", "strategy", "type"))
	assert.Equal(t, "25%", get(d, "spec", "strategy", "rollingUpdate", "maxUnavailable"))
	assert.Equal(t, "25%", get(d, "spec", "strategy", "rollingUpdate", "maxSurge"))
	assert.EqualValues(t, 10, get(d, "spec", "revisionHistoryLimit"))
	assert.EqualValues(t, 600, get(d, "spec", "progressDeadlineSeconds"))
	// The template gets the pod defaults.
	assert.Equal(t, "Always", get(d, "spec", "template", "spec", "restartPolicy"))
	c := get(d, "spec", "template", "spec", "containers").([]any)[0].(map[string]any)
	assert.Equal(t, "Always", c["imagePullPolicy"], "no tag means latest")
	assert.Nil(t, d["status"].(map[string]any)["replicas"], "client status is ignored on create")
}

func TestRecreateStrategyGetsNoRollingUpdateBounds(t *testing.T) {
	path := deploymentsPath(t)
	resp := do(t, "POST", path, "", deploymentJSON("web", `"strategy":{"type":"Recreate"},`))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Nil(t, get(resp.Obj(t), "spec", "strategy", "rollingUpdate"))
}

func TestGenerationCountsSpecAndAnnotationChangesOnly(t *testing.T) {
	path := deploymentsPath(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", deploymentJSON("web", "")).Code)
	generation := func() any { return get(do(t, "GET", path+"/web", "", "").Obj(t), "metadata", "generation") }

	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"/web", mergePatch, `{"metadata":{"labels":{"a":"b"}}}`).Code)
	assert.EqualValues(t, 1, generation(), "a label is not the controller's business")
	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"/web", mergePatch, `{"metadata":{"annotations":{"a":"b"}}}`).Code)
	assert.EqualValues(t, 2, generation(), "annotations are copied to ReplicaSets, so they count")
	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"/web", mergePatch, `{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"nginx:1.28"}]}}}}`).Code)
	assert.EqualValues(t, 3, generation())
	// The main resource ignores status.
	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"/web", mergePatch, `{"status":{"replicas":3}}`).Code)
	got := do(t, "GET", path+"/web", "", "").Obj(t)
	assert.EqualValues(t, 3, get(got, "metadata", "generation"))
	assert.Nil(t, get(got, "status", "replicas"))
}

func TestStatusSubresourceWritesOnlyStatus(t *testing.T) {
	path := deploymentsPath(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", deploymentJSON("web", `"replicas":3,`)).Code)
	resp := do(t, "PATCH", path+"/web/status", mergePatch,
		`{"spec":{"replicas":9},"status":{"observedGeneration":1,"replicas":3,"readyReplicas":2,"updatedReplicas":3,"availableReplicas":2,
		"conditions":[{"type":"Available","status":"False","reason":"MinimumReplicasUnavailable"}]}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	got := do(t, "GET", path+"/web", "", "").Obj(t)
	assert.EqualValues(t, 3, get(got, "spec", "replicas"), "/status keeps the spec")
	assert.EqualValues(t, 2, get(got, "status", "readyReplicas"))
	assert.EqualValues(t, 1, get(got, "metadata", "generation"))
	assert.Equal(t, "Available", get(got, "status", "conditions").([]any)[0].(map[string]any)["type"])
}

func TestScaleIsAViewOfReplicasAndSelector(t *testing.T) {
	path := deploymentsPath(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", deploymentJSON("web", `"replicas":2,`)).Code)
	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"/web/status", mergePatch, `{"status":{"replicas":2}}`).Code)

	resp := do(t, "GET", path+"/web/scale", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	sc := resp.Obj(t)
	assert.Equal(t, "autoscaling/v1", sc["apiVersion"])
	assert.Equal(t, "Scale", sc["kind"])
	assert.EqualValues(t, 2, get(sc, "spec", "replicas"))
	assert.EqualValues(t, 2, get(sc, "status", "replicas"))
	assert.Equal(t, "app=web", get(sc, "status", "selector"))

	resp = do(t, "PATCH", path+"/web/scale", mergePatch, `{"spec":{"replicas":5}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 5, get(resp.Obj(t), "spec", "replicas"))
	got := do(t, "GET", path+"/web", "", "").Obj(t)
	assert.EqualValues(t, 5, get(got, "spec", "replicas"))
	assert.EqualValues(t, 2, get(got, "metadata", "generation"), "scaling is a spec change")

	// kubectl scale --current-replicas: PUT with the read resourceVersion
	// and no Content-Type; the same stale version again is a conflict.
	rv := get(got, "metadata", "resourceVersion").(string)
	body := fmt.Sprintf(`{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"web","resourceVersion":%q},"spec":{"replicas":1}}`, rv)
	require.Equal(t, http.StatusOK, do(t, "PUT", path+"/web/scale", "none", body).Code)
	assert.Equal(t, http.StatusConflict, do(t, "PUT", path+"/web/scale", "none", body).Code)

	resp = do(t, "PATCH", path+"/web/scale", mergePatch, `{"spec":{"replicas":-1}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, "Invalid value: -1: must be greater than or equal to 0", causes(t, resp)["spec.replicas"])
	assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/missing/scale", "", "").Code)
}

func TestValidationNamesTheFieldsKubernetesNames(t *testing.T) {
	for _, tc := range []struct {
		name, body, field, message string
	}{
		{"negative replicas", deploymentJSON("d", `"replicas":-1,`), "spec.replicas", "Invalid value: -1: must be greater than or equal to 0"},
		{"no selector", `{"metadata":{"name":"d"},"spec":{"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`,
			"spec.selector", "Required value"},
		{"selector does not match", `{"metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`,
			"spec.template.metadata.labels", "Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"},
		{"unknown strategy", deploymentJSON("d", `"strategy":{"type":"Sideways"},`), "spec.strategy",
			`Unsupported value: {"type":"Sideways"}: supported values: "Recreate", "RollingUpdate"`},
		{"recreate with bounds", deploymentJSON("d", `"strategy":{"type":"Recreate","rollingUpdate":{"maxSurge":1}},`), "spec.strategy.rollingUpdate",
			"Forbidden: may not be specified when strategy `type` is 'Recreate'"},
		{"no surge and no unavailability", deploymentJSON("d", `"strategy":{"rollingUpdate":{"maxSurge":0,"maxUnavailable":"0%"}},`),
			"spec.strategy.rollingUpdate.maxUnavailable", "Invalid value: \"0%\": may not be 0 when `maxSurge` is 0"},
		{"more than everything unavailable", deploymentJSON("d", `"strategy":{"rollingUpdate":{"maxUnavailable":"150%"}},`),
			"spec.strategy.rollingUpdate.maxUnavailable", `Invalid value: "150%": must not be greater than 100%`},
		{"surge not a percentage", deploymentJSON("d", `"strategy":{"rollingUpdate":{"maxSurge":"lots"}},`),
			"spec.strategy.rollingUpdate.maxSurge", `Invalid value: "lots": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{"negative history", deploymentJSON("d", `"revisionHistoryLimit":-1,`), "spec.revisionHistoryLimit", "Invalid value: -1: must be greater than or equal to 0"},
		{"deadline within minReadySeconds", deploymentJSON("d", `"minReadySeconds":30,"progressDeadlineSeconds":30,`),
			"spec.progressDeadlineSeconds", "Invalid value: 30: must be greater than minReadySeconds"},
		{"pods that stop", deploymentJSON("d", `"template":{"metadata":{"labels":{"app":"web"}},"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"i"}]}},`),
			"spec.template.spec.restartPolicy", `Unsupported value: "Never": supported values: "Always"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := deploymentsPath(t)
			resp := do(t, "POST", path, "", tc.body)
			require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
			obj := resp.Obj(t)
			assert.Equal(t, "Invalid", obj["reason"])
			assert.Equal(t, "Deployment", get(obj, "details", "kind"))
			assert.Equal(t, "apps", get(obj, "details", "group"))
			assert.Equal(t, tc.message, causes(t, resp)[tc.field], resp.Body)
			assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/d", "", "").Code, "nothing is stored")
		})
	}
}

func TestSelectorIsImmutable(t *testing.T) {
	path := deploymentsPath(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", deploymentJSON("web", "")).Code)
	resp := do(t, "PATCH", path+"/web", mergePatch,
		`{"spec":{"selector":{"matchLabels":{"app":"web","tier":"fe"}},"template":{"metadata":{"labels":{"tier":"fe"}}}}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, `Invalid value: {"matchLabels":{"app":"web","tier":"fe"}}: field is immutable`, causes(t, resp)["spec.selector"])
}

func TestDryRunScaleStoresNothing(t *testing.T) {
	path := deploymentsPath(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", deploymentJSON("web", `"replicas":2,`)).Code)
	before := srv.EtcdRevision(t)
	resp := do(t, "PATCH", path+"/web/scale?dryRun=All", mergePatch, `{"spec":{"replicas":7}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 7, get(resp.Obj(t), "spec", "replicas"))
	assert.Equal(t, before, srv.EtcdRevision(t), "nothing reached etcd")
	assert.EqualValues(t, 2, get(do(t, "GET", path+"/web/scale", "", "").Obj(t), "spec", "replicas"))
}

func TestStatusWritesMustBeConsistent(t *testing.T) {
	path := deploymentsPath(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", deploymentJSON("web", "")).Code)
	resp := do(t, "PATCH", path+"/web/status", mergePatch, `{"status":{"replicas":1,"readyReplicas":1,"availableReplicas":2,"collisionCount":2}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	c := causes(t, resp)
	assert.Equal(t, "Invalid value: 2: cannot be greater than readyReplicas", c["status.availableReplicas"])

	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"/web/status", mergePatch, `{"status":{"collisionCount":2}}`).Code)
	resp = do(t, "PATCH", path+"/web/status", mergePatch, `{"status":{"collisionCount":1}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, "Invalid value: 1: cannot be decreased", causes(t, resp)["status.collisionCount"])
	resp = do(t, "PATCH", path+"/web/status", mergePatch, `{"status":{"replicas":-1}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, "Invalid value: -1: must be greater than or equal to 0", causes(t, resp)["status.replicas"])
}
