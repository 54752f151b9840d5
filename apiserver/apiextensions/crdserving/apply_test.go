package crdserving_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/apiservertest"
)

// managedOf summarises managedFields as "manager/operation/subresource" → FieldsV1.
func managedOf(t *testing.T, r apiservertest.Response) map[string]string {
	t.Helper()
	var obj struct {
		Metadata api.ObjectMeta `json:"metadata"`
	}
	r.Decode(t, &obj)
	out := map[string]string{}
	for _, e := range obj.Metadata.ManagedFields {
		out[e.Manager+"/"+string(e.Operation)+"/"+e.Subresource] = string(e.FieldsV1.Raw)
	}
	return out
}

const applyType = "application/apply-patch+yaml"

func TestServerSideApplyMergesCustomResourcesByTheirSchema(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	path := widgets(group, ns) + "/w"
	cfg := func(ports string) string {
		return "apiVersion: " + group + "/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  color: red\n  ports:\n" + ports
	}
	resp := srv.Do(t, "PATCH", path+"?fieldManager=alice", applyType, cfg("  - {name: a, port: 1}\n"))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Equal(t, map[string]string{
		"alice/Apply/": `{"f:spec":{"f:color":{},"f:ports":{"k:{\"name\":\"a\"}":{".":{},"f:name":{},"f:port":{}}}}}`,
	}, managedOf(t, resp), "ports is a map list keyed by name (x-kubernetes-list-map-keys); the defaulted replicas is nobody's")
	assert.Equal(t, float64(1), apiservertest.Get(resp.Obj(t), "spec", "replicas"), "defaulted")

	resp = srv.Do(t, "PATCH", path+"?fieldManager=bob", applyType, cfg("  - {name: b, port: 2}\n"))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Len(t, apiservertest.Get(resp.Obj(t), "spec", "ports"), 2, "elements merge by key")

	resp = srv.Do(t, "PATCH", path+"?fieldManager=bob", applyType, cfg("  - {name: a, port: 9}\n"))
	require.Equal(t, http.StatusConflict, resp.Code, resp.Body)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "alice": .spec.ports[name="a"].port`, resp.Obj(t)["message"])

	resp = srv.Do(t, "PATCH", path+"/status?fieldManager=ctl", applyType,
		"apiVersion: "+group+"/v1\nkind: Widget\nmetadata:\n  name: w\nstatus:\n  replicas: 1\n")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	m := managedOf(t, resp)
	assert.Equal(t, `{"f:status":{"f:replicas":{}}}`, m["ctl/Apply/status"])
	assert.Contains(t, m, "alice/Apply/", "a status write keeps the other entries")

	resp = srv.Do(t, "PATCH", path+"?fieldManager=bob", applyType, cfg("  - {name: b, port: 2}\n  bogus: 1\n"))
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Contains(t, resp.Obj(t)["message"], "spec.bogus: field not declared in schema")
}
