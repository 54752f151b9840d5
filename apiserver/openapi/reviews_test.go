package openapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reviews and serviceaccounts/token are described as kube-apiserver
// describes them: one POST each (createAuthorizationV1SelfSubjectAccessReview,
// createCoreV1NamespacedServiceAccountToken), with their kinds' schemas,
// so `kubectl explain selfsubjectaccessreview` finds them.
func TestOpenAPIDescribesReviewsAndTokenRequest(t *testing.T) {
	type operation struct {
		ID         string            `json:"operationId"`
		GVK        map[string]string `json:"x-kubernetes-group-version-kind"`
		Parameters []struct {
			Name   string            `json:"name"`
			Schema map[string]string `json:"schema"`
		} `json:"parameters"`
	}
	var v2 struct {
		Paths       map[string]map[string]json.RawMessage `json:"paths"`
		Definitions map[string]struct {
			GVK        []map[string]string        `json:"x-kubernetes-group-version-kind"`
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"definitions"`
	}
	doAccept(t, "/openapi/v2", "application/json").Decode(t, &v2)
	post := func(path string) operation {
		t.Helper()
		item, ok := v2.Paths[path]
		require.True(t, ok, "no path %s", path)
		var op operation
		require.NoError(t, json.Unmarshal(item["post"], &op))
		return op
	}
	for path, want := range map[string]struct{ id, group, kind string }{
		"/apis/authorization.k8s.io/v1/selfsubjectaccessreviews":      {"createAuthorizationV1SelfSubjectAccessReview", "authorization.k8s.io", "SelfSubjectAccessReview"},
		"/apis/authorization.k8s.io/v1/selfsubjectrulesreviews":       {"createAuthorizationV1SelfSubjectRulesReview", "authorization.k8s.io", "SelfSubjectRulesReview"},
		"/apis/authorization.k8s.io/v1/subjectaccessreviews":          {"createAuthorizationV1SubjectAccessReview", "authorization.k8s.io", "SubjectAccessReview"},
		"/apis/authentication.k8s.io/v1/selfsubjectreviews":           {"createAuthenticationV1SelfSubjectReview", "authentication.k8s.io", "SelfSubjectReview"},
		"/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token": {"createCoreV1NamespacedServiceAccountToken", "authentication.k8s.io", "TokenRequest"},
	} {
		op := post(path)
		assert.Equal(t, want.id, op.ID, path)
		assert.Equal(t, map[string]string{"group": want.group, "version": "v1", "kind": want.kind}, op.GVK, path)
		def := "io.k8s.api." + want.group[:len(want.group)-len(".k8s.io")] + ".v1." + want.kind
		var body string
		for _, p := range op.Parameters {
			if p.Name == "body" {
				body = p.Schema["$ref"]
			}
		}
		assert.Equal(t, "#/definitions/"+def, body, path)
		require.Contains(t, v2.Definitions, def)
		assert.Equal(t, []map[string]string{{"group": want.group, "version": "v1", "kind": want.kind}}, v2.Definitions[def].GVK, def)
	}
	assert.Len(t, v2.Paths["/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"], 2, "post and the path's parameters, nothing else")
	assert.NotContains(t, v2.Paths, "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews/{name}")
	assert.JSONEq(t, `{"type":"object","description":"`+descriptionOf(t, v2.Definitions["io.k8s.api.authorization.v1.SubjectAccessReviewSpec"].Properties["extra"])+`",
		"additionalProperties":{"type":"array","items":{"type":"string","default":""}}}`,
		string(v2.Definitions["io.k8s.api.authorization.v1.SubjectAccessReviewSpec"].Properties["extra"]), "extra values are lists of strings")

	var index v3Index
	doAccept(t, "/openapi/v3", "application/json").Decode(t, &index)
	require.Contains(t, index.Paths, "apis/authorization.k8s.io/v1")
	require.Contains(t, index.Paths, "apis/authentication.k8s.io/v1")
	doc := doAccept(t, index.Paths["apis/authorization.k8s.io/v1"].URL, "application/json")
	require.Equal(t, http.StatusOK, doc.Code)
	var v3 struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal([]byte(doc.Body), &v3))
	assert.Contains(t, v3.Components.Schemas, "io.k8s.api.authorization.v1.SelfSubjectAccessReview")
	assert.Contains(t, v3.Components.Schemas, "io.k8s.api.authorization.v1.ResourceAttributes")
}

func descriptionOf(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s struct {
		Description string `json:"description"`
	}
	require.NoError(t, json.Unmarshal(raw, &s))
	b, err := json.Marshal(s.Description)
	require.NoError(t, err)
	return string(b[1 : len(b)-1])
}
