package conformance

import (
	"context"
	"io"
	"net/http"
	"testing"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
)

// TestOpenAPIV2ProtobufIsTheJSONDocument fetches /openapi/v2 as client-go
// does (protobuf) and as JSON, and requires gnostic's own reading of the
// JSON to equal the protobuf kubeloop encoded (the Any values compared as
// the YAML they hold): the protobuf is the JSON document, nothing lost.
func TestOpenAPIV2ProtobufIsTheJSONDocument(t *testing.T) {
	dc, err := discovery.NewDiscoveryClientForConfig(adminConfig(t))
	require.NoError(t, err)
	fromProtobuf, err := dc.OpenAPISchema()
	require.NoError(t, err)

	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, kl.URL+"/openapi/v2", nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "application/json")
	hc, err := rest.HTTPClientFor(adminConfig(t))
	require.NoError(t, err)
	resp, err := hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	fromJSON, err := openapi_v2.ParseDocument(body)
	require.NoError(t, err, "gnostic reads the JSON document")

	var want, have any
	require.NoError(t, fromJSON.ToRawInfo().Decode(&want))
	require.NoError(t, fromProtobuf.ToRawInfo().Decode(&have))
	assert.Equal(t, want, have)

	require.NotEmpty(t, fromProtobuf.GetDefinitions().GetAdditionalProperties())
	var pod *openapi_v2.Schema
	for _, d := range fromProtobuf.GetDefinitions().GetAdditionalProperties() {
		if d.GetName() == "io.k8s.api.core.v1.Pod" {
			pod = d.GetValue()
		}
	}
	require.NotNil(t, pod)
	var gvk string
	for _, ext := range pod.GetVendorExtension() {
		if ext.GetName() == "x-kubernetes-group-version-kind" {
			gvk = ext.GetValue().GetYaml()
		}
	}
	assert.JSONEq(t, `[{"group":"","kind":"Pod","version":"v1"}]`, gvk)
}
