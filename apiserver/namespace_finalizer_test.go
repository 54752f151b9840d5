package apiserver_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDeleteNamespaceEmptiesAndRemovesIt(t *testing.T) {
	ns := newNamespace(t)
	do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", cmJSON("cm1", nil))
	resp := do(t, "DELETE", "/api/v1/namespaces/"+ns, "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "Terminating", get(resp.Obj(t), "status", "phase"))
	assert.NotNil(t, get(resp.Obj(t), "metadata", "deletionTimestamp"))

	resp = do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", cmJSON("late", nil))
	assert.Equal(t, http.StatusForbidden, resp.Code, "no creates in a terminating namespace: %s", resp.Body)

	require.Eventually(t, func() bool {
		return do(t, "GET", "/api/v1/namespaces/"+ns, "", "").Code == http.StatusNotFound
	}, 20*time.Second, 50*time.Millisecond)
	assert.Equal(t, http.StatusNotFound, do(t, "GET", "/api/v1/namespaces/"+ns+"/configmaps/cm1", "", "").Code)
}

func TestDefaultNamespacesExistAndAreImmortal(t *testing.T) {
	for _, name := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		require.Equal(t, http.StatusOK, do(t, "GET", "/api/v1/namespaces/"+name, "", "").Code, name)
	}
	resp := do(t, "DELETE", "/api/v1/namespaces/default", "", "")
	assert.Equal(t, http.StatusForbidden, resp.Code, resp.Body)
}
