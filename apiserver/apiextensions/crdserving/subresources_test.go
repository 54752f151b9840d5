package crdserving_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver/apiservertest"
)

func TestStatusSubresourceWritesOnlyStatus(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns), "", withGroup(widget("s", "red", 2), group)).Code)

	// The main resource ignores status.
	p := srv.Do(t, "PATCH", widgets(group, ns)+"/s", "application/merge-patch+json", `{"status":{"replicas":5}}`)
	require.Equal(t, http.StatusOK, p.Code, p.Body)
	assert.Nil(t, p.Obj(t)["status"])

	// /status ignores everything else, and does not bump generation.
	st := srv.Do(t, "PATCH", widgets(group, ns)+"/s/status", "application/merge-patch+json", `{"spec":{"color":"blue"},"status":{"replicas":2,"selector":"app=w"}}`)
	require.Equal(t, http.StatusOK, st.Code, st.Body)
	obj := st.Obj(t)
	assert.Equal(t, float64(2), apiservertest.Get(obj, "status", "replicas"))
	assert.Equal(t, "red", apiservertest.Get(obj, "spec", "color"))
	assert.Equal(t, float64(1), apiservertest.Get(obj, "metadata", "generation"))

	// The status is validated against the schema too.
	bad := srv.Do(t, "PATCH", widgets(group, ns)+"/s/status", "application/merge-patch+json", `{"status":{"replicas":"many"}}`)
	require.Equal(t, http.StatusUnprocessableEntity, bad.Code, bad.Body)
	assert.Contains(t, bad.Obj(t)["message"], `status.replicas: Invalid value: "string": status.replicas in body must be of type integer: "string"`)
}

func TestScaleSubresourceReadsAndWritesTheCRDsPaths(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns), "", withGroup(widget("sc", "red", 2), group)).Code)
	require.Equal(t, http.StatusOK, srv.Do(t, "PATCH", widgets(group, ns)+"/sc/status", "application/merge-patch+json", `{"status":{"replicas":2,"selector":"app=w"}}`).Code)

	g := srv.Do(t, "GET", widgets(group, ns)+"/sc/scale", "", "")
	require.Equal(t, http.StatusOK, g.Code, g.Body)
	sc := g.Obj(t)
	assert.Equal(t, "autoscaling/v1", sc["apiVersion"])
	assert.Equal(t, "Scale", sc["kind"])
	assert.Equal(t, float64(2), apiservertest.Get(sc, "spec", "replicas"))
	assert.Equal(t, float64(2), apiservertest.Get(sc, "status", "replicas"))
	assert.Equal(t, "app=w", apiservertest.Get(sc, "status", "selector"))

	p := srv.Do(t, "PATCH", widgets(group, ns)+"/sc/scale", "application/merge-patch+json", `{"spec":{"replicas":7}}`)
	require.Equal(t, http.StatusOK, p.Code, p.Body)
	obj := srv.Do(t, "GET", widgets(group, ns)+"/sc", "", "").Obj(t)
	assert.Equal(t, float64(7), apiservertest.Get(obj, "spec", "replicas"))
	assert.Equal(t, float64(2), apiservertest.Get(obj, "metadata", "generation"))

	// The write goes through the schema: 11 is above the maximum.
	over := srv.Do(t, "PATCH", widgets(group, ns)+"/sc/scale", "application/merge-patch+json", `{"spec":{"replicas":11}}`)
	assert.Equal(t, http.StatusUnprocessableEntity, over.Code, over.Body)
}

// An apply through a custom resource's /scale moves spec.replicas to the
// applier as for the built-in kinds, and goes through the CRD's schema.
func TestScaleSubresourceApplyMovesReplicasOwnership(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns)+"?fieldManager=creator", "", withGroup(widget("ap", "blue", 2), group)).Code)
	scale := func(n int) string {
		return fmt.Sprintf(`{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"ap"},"spec":{"replicas":%d}}`, n)
	}
	const apply = "application/apply-patch+yaml"

	c := srv.Do(t, "PATCH", widgets(group, ns)+"/ap/scale?fieldManager=scaler", apply, scale(4))
	require.Equal(t, http.StatusConflict, c.Code, c.Body)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "creator" using autoscaling/v1: .spec.replicas`, c.Obj(t)["message"])

	p := srv.Do(t, "PATCH", widgets(group, ns)+"/ap/scale?fieldManager=scaler&force=true", apply, scale(4))
	require.Equal(t, http.StatusOK, p.Code, p.Body)
	obj := srv.Do(t, "GET", widgets(group, ns)+"/ap", "", "").Obj(t)
	assert.Equal(t, float64(4), apiservertest.Get(obj, "spec", "replicas"))
	entries := map[string]any{}
	for _, e := range apiservertest.Get(obj, "metadata", "managedFields").([]any) {
		m := e.(map[string]any)
		entries[fmt.Sprint(m["manager"], "/", m["operation"], "/", m["apiVersion"], "/", m["subresource"], "/time:", m["time"] != nil)] = m["fieldsV1"]
	}
	assert.Equal(t, map[string]any{"f:spec": map[string]any{"f:replicas": map[string]any{}}}, entries["scaler/Apply/"+group+"/v1/scale/time:false"], "entries: %v", entries)
	assert.NotContains(t, apiservertest.Get(entries["creator/Update/"+group+"/v1/<nil>/time:true"].(map[string]any), "f:spec"), "f:replicas")

	// The CRD's rules still hold: a blue widget does not scale past 5.
	rv := apiservertest.Get(obj, "metadata", "resourceVersion")
	bad := srv.Do(t, "PATCH", widgets(group, ns)+"/ap/scale?fieldManager=scaler", apply, scale(6))
	require.Equal(t, http.StatusUnprocessableEntity, bad.Code, bad.Body)
	assert.Contains(t, bad.Obj(t)["message"], "only red widgets scale past 5")
	assert.Equal(t, rv, apiservertest.Get(srv.Do(t, "GET", widgets(group, ns)+"/ap", "", "").Obj(t), "metadata", "resourceVersion"), "nothing stored")
}

// looseScaleCRD has the scale subresource over a schema that says nothing
// of the replicas and selector paths.
func looseScaleCRD(group string) string {
	return fmt.Sprintf(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{"name":"dials.%[1]s"},
 "spec":{"group":%[1]q,"scope":"Cluster","names":{"plural":"dials","kind":"Dial"},
  "versions":[{"name":"v1","served":true,"storage":true,
   "schema":{"openAPIV3Schema":{"type":"object","properties":{
    "spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
    "status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}},
   "subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas","labelSelectorPath":".status.selector"}}}]}}`, group)
}

// The values at the scale paths are checked whatever the schema says, in
// Kubernetes' words and with its paths (the CRD's, leading dot included).
func TestScalePathsAreValidatedAsKubernetesDoes(t *testing.T) {
	group := createCRD(t, looseScaleCRD)
	base := "/apis/" + group + "/v1/dials"
	dial := func(name, replicas string) string {
		return fmt.Sprintf(`{"apiVersion":"%s/v1","kind":"Dial","metadata":{"name":%q},"spec":{"replicas":%s}}`, group, name, replicas)
	}
	for _, c := range []struct{ replicas, want string }{
		{`-1`, `.spec.replicas: Invalid value: -1: should be a non-negative integer`},
		{`"two"`, `.spec.replicas: Invalid value: 0: .spec.replicas accessor error: two is of the type string, expected int64`},
		{`1.5`, `.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 1.5 is of the type float64, expected int64`},
		{`3000000000`, `.spec.replicas: Invalid value: 3000000000: should be less than or equal to 2147483647`},
	} {
		resp := srv.Do(t, "POST", base, "", dial("bad", c.replicas))
		require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
		assert.Equal(t, `Dial.`+group+` "bad" is invalid: `+c.want, resp.Obj(t)["message"])
	}
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", base, "", dial("ok", "1")).Code)
	st := srv.Do(t, "PATCH", base+"/ok/status", "application/merge-patch+json", `{"status":{"replicas":-2,"selector":5}}`)
	require.Equal(t, http.StatusUnprocessableEntity, st.Code, st.Body)
	assert.Equal(t, `Dial.`+group+` "ok" is invalid: [.status.replicas: Invalid value: -2: should be a non-negative integer, .status.selector: Invalid value: "": .status.selector accessor error: 5 is of the type int64, expected string]`, st.Obj(t)["message"])
}
