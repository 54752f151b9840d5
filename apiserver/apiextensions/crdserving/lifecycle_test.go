package crdserving_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver/apiservertest"
)

const crdsPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

func TestDeletingACRDDeletesItsResourcesThenUnservesItAndItCanBeRecreated(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns), "", withGroup(widget("gone", "red", 1), group)).Code)
	// One held by a finalizer keeps the CRD Terminating until it is removed.
	held := `{"apiVersion":"` + group + `/v1","kind":"Widget","metadata":{"name":"held","finalizers":["example.com/hold"]},"spec":{"color":"red"}}`
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns), "", held).Code)

	d := srv.Do(t, "DELETE", crdsPath+"/widgets."+group, "", "")
	require.Equal(t, http.StatusOK, d.Code, d.Body)
	assert.Contains(t, apiservertest.Get(d.Obj(t), "metadata", "finalizers"), "customresourcecleanup.apiextensions.k8s.io")
	require.Eventually(t, func() bool {
		return srv.Do(t, "GET", widgets(group, ns)+"/gone", "", "").Code == http.StatusNotFound
	}, 10*time.Second, 20*time.Millisecond)
	crd := srv.Do(t, "GET", crdsPath+"/widgets."+group, "", "")
	require.Equal(t, http.StatusOK, crd.Code, "the held resource keeps the CRD")
	assert.Equal(t, "True", conditionStatus(crd.Obj(t), "Terminating"))
	assert.Equal(t, "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
		conditionOf(d.Obj(t), "Terminating")["message"], "the DELETE's answer")
	require.Eventually(t, func() bool {
		c := conditionOf(srv.Do(t, "GET", crdsPath+"/widgets."+group, "", "").Obj(t), "Terminating")
		return c["reason"] == "InstanceDeletionInProgress" && c["message"] == "CustomResource deletion is in progress"
	}, 10*time.Second, 20*time.Millisecond, "the finalizer's condition, in Kubernetes' words")
	create := srv.Do(t, "POST", widgets(group, ns), "", withGroup(widget("late", "red", 1), group))
	assert.Equal(t, http.StatusMethodNotAllowed, create.Code, create.Body)
	assert.Contains(t, create.Body, "create not allowed while custom resource definition is terminating")

	require.Equal(t, http.StatusOK, srv.Do(t, "PATCH", widgets(group, ns)+"/held", "application/merge-patch+json", `{"metadata":{"finalizers":null}}`).Code)
	require.Eventually(t, func() bool {
		return srv.Do(t, "GET", crdsPath+"/widgets."+group, "", "").Code == http.StatusNotFound
	}, 10*time.Second, 20*time.Millisecond)
	assert.Equal(t, http.StatusNotFound, srv.Do(t, "GET", widgets(group, ns), "", "").Code)
	assert.NotContains(t, srv.Do(t, "GET", "/apis", "", "").Body, group)

	// Re-created, it is served again, empty.
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", crdsPath, "", widgetCRD(group)).Code)
	waitEstablished(t, "widgets."+group)
	list := srv.Do(t, "GET", widgets(group, ns), "", "")
	require.Equal(t, http.StatusOK, list.Code, list.Body)
	assert.Empty(t, list.Obj(t)["items"])
}

func TestInvalidCRDIs422WithFieldPaths(t *testing.T) {
	body := strings.Replace(widgetCRD("bad.example.com"), `"scope":"Namespaced"`, `"scope":"Sometimes"`, 1)
	body = strings.Replace(body, `"storage":true`, `"storage":false`, 1)
	body = strings.Replace(body, `"size":{"type":"string","maxLength":3}`, `"size":{"maxLength":3}`, 1)
	resp := srv.Do(t, "POST", crdsPath, "", body)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	msg := resp.Obj(t)["message"].(string)
	assert.Contains(t, msg, `CustomResourceDefinition.apiextensions.k8s.io "widgets.bad.example.com" is invalid`)
	assert.Contains(t, msg, `spec.scope: Unsupported value: "Sometimes": supported values: "Cluster", "Namespaced"`)
	assert.Contains(t, msg, `spec.versions: Invalid value:`)
	const root = "spec.versions[0].schema.openAPIV3Schema"
	assert.Contains(t, msg, root+`.properties[spec].properties[size].type: Required value: must not be empty for specified object fields`)

	// A structural schema whose CEL rule does not compile.
	cel := strings.Replace(widgetCRD("bad.example.com"), `self.color == 'red'`, `self.colour == 'red'`, 1)
	resp = srv.Do(t, "POST", crdsPath, "", cel)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Contains(t, resp.Obj(t)["message"], root+`.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {"rule":"self.replicas \u003c= 5 || self.colour == 'red'","message":"only red widgets scale past 5"}: compilation failed: ERROR: <input>:1:27: undefined field 'colour'`,
		"as Kubernetes, the bad value is the whole rule")
	assert.Equal(t, http.StatusNotFound, srv.Do(t, "GET", crdsPath+"/widgets.bad.example.com", "", "").Code)
}

func TestScopeAndGroupChangesAreRefused(t *testing.T) {
	group := createCRD(t, widgetCRD)
	cur := srv.Do(t, "GET", crdsPath+"/widgets."+group, "", "").Obj(t)
	for _, patch := range []struct{ body, want string }{
		{`{"spec":{"scope":"Cluster"}}`, `spec.scope: Invalid value: "Cluster": field is immutable`},
		{`{"spec":{"group":"other.example.com"}}`, `spec.group: Invalid value: "other.example.com": field is immutable`},
	} {
		resp := srv.Do(t, "PATCH", crdsPath+"/widgets."+group, "application/merge-patch+json", patch.body)
		require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
		assert.Contains(t, resp.Obj(t)["message"], patch.want)
	}
	after := srv.Do(t, "GET", crdsPath+"/widgets."+group, "", "").Obj(t)
	assert.Equal(t, apiservertest.Get(cur, "metadata", "resourceVersion"), apiservertest.Get(after, "metadata", "resourceVersion"))
}

func TestConflictingNamesAreNotAccepted(t *testing.T) {
	group := createCRD(t, widgetCRD)
	other := strings.NewReplacer(`"widgets.`+group+`"`, `"gadgets.`+group+`"`, `"plural":"widgets"`, `"plural":"gadgets"`,
		`"singular":"widget"`, `"singular":"gadget"`, `"shortNames":["wd"]`, `"shortNames":["gd"]`).Replace(widgetCRD(group))
	resp := srv.Do(t, "POST", crdsPath, "", other)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	t.Cleanup(func() { srv.Do(t, "DELETE", crdsPath+"/gadgets."+group, "", "") })
	require.Eventually(t, func() bool {
		return conditionStatus(srv.Do(t, "GET", crdsPath+"/gadgets."+group, "", "").Obj(t), "NamesAccepted") == "False"
	}, 10*time.Second, 20*time.Millisecond)
	crd := srv.Do(t, "GET", crdsPath+"/gadgets."+group, "", "").Obj(t)
	assert.NotEqual(t, "True", conditionStatus(crd, "Established"))
	assert.Equal(t, http.StatusNotFound, srv.Do(t, "GET", fmt.Sprintf("/apis/%s/v1/gadgets", group), "", "").Code)
	assert.NotContains(t, srv.Do(t, "GET", "/apis/"+group+"/v1", "", "").Body, "gadgets", "nothing of it in discovery")
	assert.NotContains(t, srv.Do(t, "GET", "/openapi/v2", "", "").Body, ".v1.Gadget", "nor in OpenAPI")

	// Deleting the CRD that holds the names frees them, as Kubernetes'
	// naming controller requeues the other CRDs of the group.
	require.Equal(t, http.StatusOK, srv.Do(t, "DELETE", crdsPath+"/widgets."+group, "", "").Code)
	waitEstablished(t, "gadgets."+group)
	assert.Equal(t, "True", conditionStatus(srv.Do(t, "GET", crdsPath+"/gadgets."+group, "", "").Obj(t), "NamesAccepted"))
	assert.Equal(t, http.StatusOK, srv.Do(t, "GET", fmt.Sprintf("/apis/%s/v1/gadgets", group), "", "").Code)
}
