package serviceaccount_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver/apiservertest"
)

var srv *apiservertest.Server

func TestMain(m *testing.M) {
	apiservertest.Main(m, func(s *apiservertest.Server) { srv = s })
}

func TestSecretReferencesAreTrimmedToNames(t *testing.T) {
	path := "/api/v1/namespaces/" + srv.NewNamespace(t) + "/serviceaccounts"
	resp := srv.Do(t, "POST", path, "", `{"metadata":{"name":"builder"},
		"secrets":[{"name":"tok","namespace":"elsewhere","uid":"u1","resourceVersion":"5"}],
		"imagePullSecrets":[{"name":"reg"}],"automountServiceAccountToken":false}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	sa := resp.Obj(t)
	assert.Equal(t, []any{map[string]any{"name": "tok"}}, sa["secrets"])
	assert.Equal(t, []any{map[string]any{"name": "reg"}}, sa["imagePullSecrets"])
	assert.Equal(t, false, sa["automountServiceAccountToken"])
	assert.NotContains(t, sa["metadata"], "generation")

	resp = srv.Do(t, "PATCH", path+"/builder", "application/merge-patch+json", `{"secrets":[{"name":"tok2","kind":"Secret"}]}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, []any{map[string]any{"name": "tok2"}}, resp.Obj(t)["secrets"])
}

func TestNameMustBeADNSSubdomain(t *testing.T) {
	path := "/api/v1/namespaces/" + srv.NewNamespace(t) + "/serviceaccounts"
	resp := srv.Do(t, "POST", path, "", `{"metadata":{"name":"Not_Valid"}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Contains(t, resp.Obj(t)["message"], `ServiceAccount "Not_Valid" is invalid: metadata.name: Invalid value: "Not_Valid": a lowercase RFC 1123 subdomain`)
}
