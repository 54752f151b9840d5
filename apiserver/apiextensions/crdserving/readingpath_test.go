package crdserving_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver/apiservertest"
)

// Reading path, step 11 (docs/reading-path.md): a resource type defined as
// data. Creating a CustomResourceDefinition is an ordinary write; the
// crdserving Controller sees it in its watch, accepts its names, registers
// endpoints for its version in the Served table and marks it Established.
// From then on the new resource is served like a built-in: a Widget is
// created with its schema's default filled in, one that breaks the schema
// is a 422 naming the field, and the list returns what was stored. Break in
// Controller.reconcile (crdserving/controller.go), Served.Register
// (served.go) and Served.ServeHTTP (handler.go).
func TestReadingPathStep11CRDServesANewResource(t *testing.T) {
	group := createCRD(t, widgetCRD) // waits for Established
	ns := srv.NewNamespace(t)

	resp := srv.Do(t, "POST", widgets(group, ns), "", withGroup(`{"apiVersion":"GROUP/v1","kind":"Widget",
		"metadata":{"name":"web"},"spec":{"color":"blue"}}`, group))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Equal(t, float64(1), apiservertest.Get(resp.Obj(t), "spec", "replicas"), "the schema's default")

	resp = srv.Do(t, "POST", widgets(group, ns), "", withGroup(`{"apiVersion":"GROUP/v1","kind":"Widget",
		"metadata":{"name":"bad"},"spec":{"color":"green"}}`, group))
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Contains(t, resp.Body, "spec.color")

	list := srv.Do(t, "GET", widgets(group, ns), "", "").Obj(t)
	items, _ := list["items"].([]any)
	require.Len(t, items, 1, "only the valid Widget was stored")
	assert.Equal(t, "web", apiservertest.Get(items[0].(map[string]any), "metadata", "name"))
}
