package discovery_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reviews are create-only, cluster-scoped resources of their groups,
// and serviceaccounts/token a create-only subresource answering a
// TokenRequest, as kube-apiserver lists them; the RBAC kinds are there
// with every verb.
func TestDiscoveryListsReviewsTokenAndRBAC(t *testing.T) {
	authz := do(t, "GET", "/apis/authorization.k8s.io/v1", "", "").Obj(t)
	for name, kind := range map[string]string{
		"selfsubjectaccessreviews": "SelfSubjectAccessReview",
		"selfsubjectrulesreviews":  "SelfSubjectRulesReview",
		"subjectaccessreviews":     "SubjectAccessReview",
	} {
		r := findResource(t, authz, name)
		assert.Equal(t, kind, r["kind"], name)
		assert.Equal(t, []any{"create"}, r["verbs"], name)
		assert.Equal(t, false, r["namespaced"], name)
		assert.Equal(t, name[:len(name)-1], r["singularName"], name)
	}
	authn := do(t, "GET", "/apis/authentication.k8s.io/v1", "", "").Obj(t)
	assert.Equal(t, []any{"create"}, findResource(t, authn, "selfsubjectreviews")["verbs"])

	core := do(t, "GET", "/api/v1", "", "").Obj(t)
	token := findResource(t, core, "serviceaccounts/token")
	assert.Equal(t, map[string]any{"name": "serviceaccounts/token", "singularName": "", "namespaced": true,
		"group": "authentication.k8s.io", "version": "v1", "kind": "TokenRequest", "verbs": []any{"create"}}, token)

	rbac := do(t, "GET", "/apis/rbac.authorization.k8s.io/v1", "", "").Obj(t)
	for _, name := range []string{"roles", "rolebindings", "clusterroles", "clusterrolebindings"} {
		assert.Contains(t, findResource(t, rbac, name)["verbs"], "watch", name)
	}

	groups := do(t, "GET", "/apis", "", "").Obj(t)
	var names []string
	for _, g := range groups["groups"].([]any) {
		names = append(names, g.(map[string]any)["name"].(string))
	}
	assert.Subset(t, names, []string{"authorization.k8s.io", "authentication.k8s.io", "rbac.authorization.k8s.io"})
}

// Aggregated discovery says the same.
func TestAggregatedDiscoveryListsReviewsAndToken(t *testing.T) {
	type resource struct {
		Resource     string   `json:"resource"`
		Scope        string   `json:"scope"`
		Verbs        []string `json:"verbs"`
		ResponseKind struct{ Group, Version, Kind string }
		Subresources []struct {
			Subresource  string   `json:"subresource"`
			Verbs        []string `json:"verbs"`
			ResponseKind struct{ Group, Version, Kind string }
		} `json:"subresources"`
	}
	byName := func(path string) map[string]resource {
		var list struct {
			Items []struct {
				Metadata struct{ Name string }
				Versions []struct {
					Resources []resource `json:"resources"`
				}
			}
		}
		resp := doAccept(t, path, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
		require.Equal(t, http.StatusOK, resp.Code)
		require.NoError(t, json.Unmarshal([]byte(resp.Body), &list))
		out := map[string]resource{}
		for _, g := range list.Items {
			for _, v := range g.Versions {
				for _, r := range v.Resources {
					out[g.Metadata.Name+"/"+r.Resource] = r
				}
			}
		}
		return out
	}
	named := byName("/apis")
	ssar, ok := named["authorization.k8s.io/selfsubjectaccessreviews"]
	require.True(t, ok, "selfsubjectaccessreviews in aggregated discovery")
	assert.Equal(t, []string{"create"}, ssar.Verbs)
	assert.Equal(t, "Cluster", ssar.Scope)
	assert.Equal(t, "SelfSubjectAccessReview", ssar.ResponseKind.Kind)
	assert.Equal(t, []string{"create"}, named["authentication.k8s.io/selfsubjectreviews"].Verbs)

	sa := byName("/api")["/serviceaccounts"]
	require.Len(t, sa.Subresources, 1)
	assert.Equal(t, "token", sa.Subresources[0].Subresource)
	assert.Equal(t, []string{"create"}, sa.Subresources[0].Verbs)
	assert.Equal(t, "TokenRequest", sa.Subresources[0].ResponseKind.Kind)
	assert.Equal(t, "authentication.k8s.io", sa.Subresources[0].ResponseKind.Group)
}
