package openapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type v3Index struct {
	Paths map[string]struct {
		URL string `json:"serverRelativeURL"`
	} `json:"paths"`
}

func TestOpenAPIV3DeclaresFieldValidationOnPatch(t *testing.T) {
	var index v3Index
	doAccept(t, "/openapi/v3", "application/json").Decode(t, &index)
	require.Contains(t, index.Paths, "apis/apps/v1")
	doc := doAccept(t, index.Paths["apis/apps/v1"].URL, "application/json")
	require.Equal(t, http.StatusOK, doc.Code)
	assert.Equal(t, "public, immutable", doc.Header.Get("Cache-Control"), "a hashed URL never changes")
	var d struct {
		Paths map[string]struct {
			Patch struct {
				GVK    map[string]string `json:"x-kubernetes-group-version-kind"`
				Params []struct {
					Name string `json:"name"`
				} `json:"parameters"`
			} `json:"patch"`
		} `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal([]byte(doc.Body), &d))
	patch := d.Paths["/apis/apps/v1/namespaces/{namespace}/replicasets/{name}"].Patch
	assert.Equal(t, "ReplicaSet", patch.GVK["kind"])
	var names []string
	for _, p := range patch.Params {
		names = append(names, p.Name)
	}
	assert.Contains(t, names, "fieldValidation")
	assert.Contains(t, d.Components.Schemas, "io.k8s.api.apps.v1.ReplicaSet")
	assert.Equal(t, http.StatusNotFound, doAccept(t, "/openapi/v3/apis/nope/v1", "application/json").Code)
}

func TestOpenAPIV3StaleHashRedirectsToTheCurrentDocument(t *testing.T) {
	var index v3Index
	doAccept(t, "/openapi/v3", "application/json").Decode(t, &index)
	// The test client follows the redirect: the answer is the document.
	r := doAccept(t, "/openapi/v3/api/v1?hash=0123", "application/json")
	require.Equal(t, http.StatusOK, r.Code)
	assert.Equal(t, doAccept(t, index.Paths["api/v1"].URL, "application/json").Body, r.Body)
	assert.Equal(t, http.StatusNotAcceptable, doAccept(t, "/openapi/v3/api/v1", "application/vnd.kubernetes.protobuf").Code)
}

func TestOpenAPIV2AnswersJSONOrProtobufAsAccepted(t *testing.T) {
	js := doAccept(t, "/openapi/v2", "application/json")
	require.Equal(t, http.StatusOK, js.Code)
	assert.Equal(t, "application/json", js.Header.Get("Content-Type"))
	var doc struct {
		Swagger     string                     `json:"swagger"`
		Definitions map[string]json.RawMessage `json:"definitions"`
		Paths       map[string]json.RawMessage `json:"paths"`
	}
	js.Decode(t, &doc)
	assert.Equal(t, "2.0", doc.Swagger)
	assert.Contains(t, doc.Definitions, "io.k8s.api.core.v1.Pod")
	assert.Contains(t, doc.Paths, "/apis/apps/v1/namespaces/{namespace}/replicasets/{name}/scale")

	// What client-go's discovery client sends.
	pb := doAccept(t, "/openapi/v2", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf")
	require.Equal(t, http.StatusOK, pb.Code)
	assert.Equal(t, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf", pb.Header.Get("Content-Type"))
	assert.Contains(t, pb.Body, "\x0a\x032.0", "field 1, swagger: 2.0")
	assert.Less(t, len(pb.Body), len(js.Body))
	assert.Equal(t, js.Header.Get("Etag"), pb.Header.Get("Etag"), "one document, one ETag; Vary: Accept tells them apart")
	assert.Equal(t, "Accept", pb.Header.Get("Vary"))

	assert.Equal(t, http.StatusOK, doAccept(t, "/openapi/v2", "*/*").Code)
	assert.Equal(t, http.StatusNotAcceptable, doAccept(t, "/openapi/v2", "text/html").Code)

	again := srv.DoWith(t, context.Background(), http.MethodGet, "/openapi/v2", "", "",
		http.Header{"Accept": {"application/json"}, "If-None-Match": {js.Header.Get("Etag")}})
	assert.Equal(t, http.StatusNotModified, again.Code)
	assert.Empty(t, again.Body)
}
