package crdserving_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver/apiservertest"
)

// gadgetCRD is a cluster-scoped CRD whose schema uses the x-kubernetes
// extensions: spec.port is int-or-string, spec.template an embedded
// resource, spec.extra keeps unknown fields, and spec.owner cannot change
// once set (a transition rule on oldSelf).
func gadgetCRD(group string) string {
	return fmt.Sprintf(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{"name":"gadgets.%[1]s"},
 "spec":{"group":%[1]q,"scope":"Cluster","names":{"plural":"gadgets","kind":"Gadget"},
  "versions":[{"name":"v1","served":true,"storage":true,
   "schema":{"openAPIV3Schema":{"type":"object","properties":{
    "spec":{"type":"object","properties":{
     "port":{"x-kubernetes-int-or-string":true},
     "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
     "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
     "owner":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"owner is immutable"}]}}}}}}}]}}`, group)
}

func gadget(group, name, spec string) string {
	return fmt.Sprintf(`{"apiVersion":"%s/v1","kind":"Gadget","metadata":{"name":%q,"labels":{"app":"g"}},"spec":%s}`, group, name, spec)
}

// watchEvents opens a watch on path and returns a function that reads the
// next n events as "TYPE name".
func watchEvents(t *testing.T, path string) func(n int) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+path, nil)
	require.NoError(t, err)
	resp, err := srv.HTTPClient().Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	require.Equal(t, http.StatusOK, resp.StatusCode)
	sc := bufio.NewScanner(resp.Body)
	return func(n int) []string {
		var out []string
		for len(out) < n && sc.Scan() {
			var ev struct {
				Type   string         `json:"type"`
				Object map[string]any `json:"object"`
			}
			require.NoError(t, json.Unmarshal(sc.Bytes(), &ev))
			out = append(out, ev.Type+" "+fmt.Sprint(apiservertest.Get(ev.Object, "metadata", "name")))
		}
		return out
	}
}

// Every verb of a cluster-scoped custom resource at its URLs, and none at a
// namespaced URL.
func TestEveryVerbOfAClusterScopedCustomResource(t *testing.T) {
	group := createCRD(t, gadgetCRD)
	base := "/apis/" + group + "/v1/gadgets"
	next := watchEvents(t, base+"?watch=true")

	c := srv.Do(t, "POST", base, "", gadget(group, "a", `{"port":80}`))
	require.Equal(t, http.StatusCreated, c.Code, c.Body)
	assert.Nil(t, apiservertest.Get(c.Obj(t), "metadata", "namespace"))
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", base, "", gadget(group, "b", `{"port":"http"}`)).Code)
	assert.Equal(t, http.StatusNotFound, srv.Do(t, "GET", "/apis/"+group+"/v1/namespaces/default/gadgets/a", "", "").Code,
		"a cluster-scoped kind has no namespaced URL")

	g := srv.Do(t, "GET", base+"/a", "", "")
	require.Equal(t, http.StatusOK, g.Code, g.Body)
	obj := g.Obj(t)
	obj["spec"].(map[string]any)["port"] = "8080"
	u := srv.Do(t, "PUT", base+"/a", "", mustJSON(t, obj))
	require.Equal(t, http.StatusOK, u.Code, u.Body)
	assert.Equal(t, "8080", apiservertest.Get(u.Obj(t), "spec", "port"))
	jp := srv.Do(t, "PATCH", base+"/a", "application/json-patch+json", `[{"op":"replace","path":"/spec/port","value":81}]`)
	require.Equal(t, http.StatusOK, jp.Code, jp.Body)
	assert.Equal(t, float64(81), apiservertest.Get(jp.Obj(t), "spec", "port"))
	ap := srv.Do(t, "PATCH", base+"/c?fieldManager=test", applyType, "apiVersion: "+group+"/v1\nkind: Gadget\nmetadata:\n  name: c\nspec:\n  port: 1\n")
	require.Equal(t, http.StatusCreated, ap.Code, ap.Body)

	list := srv.Do(t, "GET", base+"?labelSelector=app%3Dg", "", "")
	require.Equal(t, http.StatusOK, list.Code, list.Body)
	assert.Len(t, list.Obj(t)["items"], 2, "c has no label")
	byName := srv.Do(t, "GET", base+"?fieldSelector=metadata.name%3Da", "", "")
	require.Equal(t, http.StatusOK, byName.Code, byName.Body)
	assert.Len(t, byName.Obj(t)["items"], 1)
	byNS := srv.Do(t, "GET", base+"?fieldSelector=metadata.namespace%3Ddefault", "", "")
	require.Equal(t, http.StatusBadRequest, byNS.Code, "a cluster-scoped kind has no metadata.namespace field")
	assert.Equal(t, "field label not supported: metadata.namespace", byNS.Obj(t)["message"])

	require.Equal(t, http.StatusOK, srv.Do(t, "DELETE", base+"/c", "", "").Code)
	dc := srv.Do(t, "DELETE", base+"?labelSelector=app%3Dg", "", "")
	require.Equal(t, http.StatusOK, dc.Code, dc.Body)
	assert.Empty(t, srv.Do(t, "GET", base, "", "").Obj(t)["items"])

	assert.Equal(t, []string{"ADDED a", "ADDED b", "MODIFIED a", "MODIFIED a", "ADDED c", "DELETED c"}, next(6))
	assert.ElementsMatch(t, []string{"DELETED a", "DELETED b"}, next(2))
}

// A namespaced kind: deletecollection in one namespace leaves the others',
// and a watch of all namespaces sees both.
func TestDeleteCollectionAndWatchAcrossNamespaces(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns1, ns2 := srv.NewNamespace(t), srv.NewNamespace(t)
	next := watchEvents(t, "/apis/"+group+"/v1/widgets?watch=true")
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns1), "", withGroup(widget("x", "red", 1), group)).Code)
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns2), "", withGroup(widget("x", "red", 1), group)).Code)
	dc := srv.Do(t, "DELETE", widgets(group, ns1), "", "")
	require.Equal(t, http.StatusOK, dc.Code, dc.Body)
	assert.Equal(t, http.StatusNotFound, srv.Do(t, "GET", widgets(group, ns1)+"/x", "", "").Code)
	assert.Equal(t, http.StatusOK, srv.Do(t, "GET", widgets(group, ns2)+"/x", "", "").Code)
	assert.Equal(t, []string{"ADDED x", "ADDED x", "DELETED x"}, next(3))
}

// A custom resource's finalizers hold its deletion as for any kind.
func TestFinalizersHoldACustomResource(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	held := `{"apiVersion":"` + group + `/v1","kind":"Widget","metadata":{"name":"f","finalizers":["example.com/hold"]},"spec":{"color":"red"}}`
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns), "", held).Code)
	d := srv.Do(t, "DELETE", widgets(group, ns)+"/f", "", "")
	require.Equal(t, http.StatusOK, d.Code, d.Body)
	assert.NotNil(t, apiservertest.Get(d.Obj(t), "metadata", "deletionTimestamp"))
	g := srv.Do(t, "GET", widgets(group, ns)+"/f", "", "")
	require.Equal(t, http.StatusOK, g.Code, "the finalizer holds it")
	assert.NotNil(t, apiservertest.Get(g.Obj(t), "metadata", "deletionTimestamp"))
	p := srv.Do(t, "PATCH", widgets(group, ns)+"/f", "application/merge-patch+json", `{"metadata":{"finalizers":null}}`)
	require.Equal(t, http.StatusOK, p.Code, p.Body)
	assert.Equal(t, http.StatusNotFound, srv.Do(t, "GET", widgets(group, ns)+"/f", "", "").Code)
}

// The x-kubernetes extensions over HTTP: int-or-string, embedded resources
// (typed, validated metadata, the rest kept), preserved unknown fields, and
// a transition rule on oldSelf.
func TestSchemaExtensionsAndTransitionRules(t *testing.T) {
	group := createCRD(t, gadgetCRD)
	base := "/apis/" + group + "/v1/gadgets"
	c := srv.Do(t, "POST", base, "", gadget(group, "e", `{"port":"50%","owner":"a","typo":1,
		"extra":{"any":{"thing":[1]}},
		"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"x":"y"},"bogus":1},"spec":{"containers":[]}}}`))
	require.Equal(t, http.StatusCreated, c.Code, c.Body)
	obj := c.Obj(t)
	assert.Equal(t, "50%", apiservertest.Get(obj, "spec", "port"))
	assert.Nil(t, apiservertest.Get(obj, "spec", "typo"), "pruned")
	assert.Equal(t, map[string]any{"any": map[string]any{"thing": []any{float64(1)}}}, apiservertest.Get(obj, "spec", "extra"))
	assert.Equal(t, map[string]any{"name": "p", "labels": map[string]any{"x": "y"}}, apiservertest.Get(obj, "spec", "template", "metadata"),
		"an embedded resource's metadata is ObjectMeta: unknown fields pruned")
	assert.Equal(t, map[string]any{"containers": []any{}}, apiservertest.Get(obj, "spec", "template", "spec"))
	strict := srv.Do(t, "POST", base+"?fieldValidation=Strict", "", gadget(group, "s", `{"template":{"apiVersion":"v1","kind":"Pod","metadata":{"bogus":1}}}`))
	require.Equal(t, http.StatusBadRequest, strict.Code, strict.Body)
	assert.Contains(t, strict.Obj(t)["message"], `unknown field "spec.template.metadata.bogus"`)
	typed := srv.Do(t, "POST", base, "", gadget(group, "s", `{"template":{"apiVersion":"v1","kind":"Pod","metadata":{"labels":5}}}`))
	require.Equal(t, http.StatusBadRequest, typed.Code, typed.Body)
	assert.Contains(t, typed.Obj(t)["message"], `spec.template.metadata: Invalid value: `)

	bad := srv.Do(t, "POST", base, "", gadget(group, "bad", `{"port":true,"template":{"metadata":{"name":"Bad/Name"}}}`))
	require.Equal(t, http.StatusUnprocessableEntity, bad.Code, bad.Body)
	msg := bad.Obj(t)["message"].(string)
	for _, want := range []string{
		`spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"`,
		`spec.template.apiVersion: Required value`,
		`spec.template.kind: Required value`,
		`spec.template.metadata.name: Invalid value: "Bad/Name": may not contain '/'`,
	} {
		assert.Contains(t, msg, want)
	}

	// oldSelf: the owner is immutable; other changes pass.
	ok := srv.Do(t, "PATCH", base+"/e", "application/merge-patch+json", `{"spec":{"port":1}}`)
	require.Equal(t, http.StatusOK, ok.Code, ok.Body)
	imm := srv.Do(t, "PATCH", base+"/e", "application/merge-patch+json", `{"spec":{"owner":"b"}}`)
	require.Equal(t, http.StatusUnprocessableEntity, imm.Code, imm.Body)
	assert.Equal(t, `Gadget.`+group+` "e" is invalid: spec.owner: Invalid value: "b": owner is immutable`, imm.Obj(t)["message"])
}
