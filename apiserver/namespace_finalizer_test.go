package apiserver_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A deleted namespace is Terminating while anything in it remains (here a
// ConfigMap whose finalizer holds it, so the test does not race the
// finalizer loop), refuses new content meanwhile, and goes once emptied.
func TestDeleteNamespaceEmptiesAndRemovesIt(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON("cm1", nil)).Code)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", `{"metadata":{"name":"held","finalizers":["example.com/hold"]}}`).Code)
	resp := do(t, "DELETE", "/api/v1/namespaces/"+ns, "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "Terminating", get(resp.Obj(t), "status", "phase"))
	assert.NotNil(t, get(resp.Obj(t), "metadata", "deletionTimestamp"))

	resp = do(t, "POST", path, "", cmJSON("late", nil))
	assert.Equal(t, http.StatusForbidden, resp.Code, "no creates in a terminating namespace: %s", resp.Body)
	require.Eventually(t, func() bool {
		return do(t, "GET", path+"/cm1", "", "").Code == http.StatusNotFound
	}, 20*time.Second, 50*time.Millisecond, "the finalizer deletes what it can")
	assert.Equal(t, http.StatusOK, do(t, "GET", "/api/v1/namespaces/"+ns, "", "").Code, "held by the ConfigMap's finalizer")

	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"/held", "application/merge-patch+json", `{"metadata":{"finalizers":null}}`).Code)
	require.Eventually(t, func() bool {
		return do(t, "GET", "/api/v1/namespaces/"+ns, "", "").Code == http.StatusNotFound
	}, 20*time.Second, 50*time.Millisecond)
	assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/held", "", "").Code)
}

func TestDefaultNamespacesExistAndAreImmortal(t *testing.T) {
	for _, name := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		require.Equal(t, http.StatusOK, do(t, "GET", "/api/v1/namespaces/"+name, "", "").Code, name)
	}
	resp := do(t, "DELETE", "/api/v1/namespaces/default", "", "")
	assert.Equal(t, http.StatusForbidden, resp.Code, resp.Body)
}
