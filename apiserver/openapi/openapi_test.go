package openapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpenAPIV3DeclaresFieldValidationOnPatch(t *testing.T) {
	var index struct {
		Paths map[string]struct {
			URL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	doAccept(t, "/openapi/v3", "application/json").Decode(t, &index)
	require.Contains(t, index.Paths, "apis/apps/v1")
	doc := doAccept(t, index.Paths["apis/apps/v1"].URL, "application/json")
	require.Equal(t, http.StatusOK, doc.Code)
	var d struct {
		Paths map[string]map[string]struct {
			GVK    map[string]string `json:"x-kubernetes-group-version-kind"`
			Params []struct {
				Name string `json:"name"`
			} `json:"parameters"`
		} `json:"paths"`
	}
	require.NoError(t, json.Unmarshal([]byte(doc.Body), &d))
	patch := d.Paths["/apis/apps/v1/namespaces/{namespace}/replicasets/{name}"]["patch"]
	assert.Equal(t, "ReplicaSet", patch.GVK["kind"])
	var names []string
	for _, p := range patch.Params {
		names = append(names, p.Name)
	}
	assert.Contains(t, names, "fieldValidation")
	assert.Equal(t, http.StatusNotFound, doAccept(t, "/openapi/v3/apis/nope/v1", "application/json").Code)
}
