package crdserving_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver/apiservertest"
)

func TestOpenAPIPublishesTheCRDSchemaAndForgetsItWhenDeleted(t *testing.T) {
	group := createCRD(t, widgetCRD)
	index := srv.Do(t, "GET", "/openapi/v3", "", "").Obj(t)
	entry, ok := apiservertest.Get(index, "paths", "apis/"+group+"/v1").(map[string]any)
	require.True(t, ok, "the index lists the custom group version")
	doc := srv.Do(t, "GET", entry["serverRelativeURL"].(string), "", "")
	require.Equal(t, http.StatusOK, doc.Code, doc.Body)
	parts := strings.Split(group, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	name := strings.Join(parts, ".") + ".v1.Widget"
	def, ok := apiservertest.Get(doc.Obj(t), "components", "schemas", name).(map[string]any)
	require.True(t, ok, "no definition %s", name)
	assert.Equal(t, []any{map[string]any{"group": group, "kind": "Widget", "version": "v1"}}, def["x-kubernetes-group-version-kind"])
	assert.Equal(t, []any{"red", "blue"}, apiservertest.Get(def, "properties", "spec", "properties", "color", "enum"))
	assert.NotNil(t, apiservertest.Get(doc.Obj(t), "components", "schemas", "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"))
	assert.Contains(t, doc.Body, `"/apis/`+group+`/v1/namespaces/{namespace}/widgets/{name}/scale"`)

	v2 := srv.Do(t, "GET", "/openapi/v2", "", "")
	require.Equal(t, http.StatusOK, v2.Code)
	v2def, ok := apiservertest.Get(v2.Obj(t), "definitions", name).(map[string]any)
	require.True(t, ok)
	assert.Nil(t, apiservertest.Get(v2def, "properties", "spec", "x-kubernetes-validations"), "v2 has no CEL rules")
	pb := srv.DoWith(t, context.Background(), "GET", "/openapi/v2", "", "", http.Header{"Accept": {"application/com.github.proto-openapi.spec.v2@v1.0+protobuf"}})
	assert.Equal(t, http.StatusOK, pb.Code)
	assert.Contains(t, pb.Body, name)

	require.Equal(t, http.StatusOK, srv.Do(t, "DELETE", crdsPath+"/widgets."+group, "", "").Code)
	require.Eventually(t, func() bool {
		return !strings.Contains(srv.Do(t, "GET", "/openapi/v3", "", "").Body, "apis/"+group+"/v1")
	}, 10e9, 20e6)
}
