package apiserver_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The apiserver's part of deleting a namespace is its admission: the
// namespace becomes Terminating and takes no new content. Emptying it and
// removing the "kubernetes" finalizer is the namespace controller's work
// (controllers/namespace), and nothing here runs one, so the namespace
// stays exactly as DELETE left it until the test finalizes it.
func TestDeletedNamespaceIsTerminatingRefusesContentAndGoesOnlyWhenFinalized(t *testing.T) {
	ns := newNamespace(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", cmJSON("cm1", nil)).Code)
	resp := do(t, "DELETE", "/api/v1/namespaces/"+ns, "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "Terminating", get(resp.Obj(t), "status", "phase"))
	assert.NotNil(t, get(resp.Obj(t), "metadata", "deletionTimestamp"))
	assert.Equal(t, []any{"kubernetes"}, get(resp.Obj(t), "spec", "finalizers"))

	resp = do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", cmJSON("late", nil))
	require.Equal(t, http.StatusForbidden, resp.Code, "no creates in a terminating namespace: %s", resp.Body)
	assert.Equal(t, fmt.Sprintf(`configmaps "late" is forbidden: unable to create new content in namespace %s because it is being terminated`, ns),
		get(resp.Obj(t), "message"))
	assert.Equal(t, "NamespaceTerminating", get(resp.Obj(t), "details", "causes").([]any)[0].(map[string]any)["reason"])

	// A second DELETE changes nothing: the finalizer still holds it.
	resp = do(t, "DELETE", "/api/v1/namespaces/"+ns, "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "Terminating", get(resp.Obj(t), "status", "phase"))
	require.Equal(t, http.StatusOK, do(t, "GET", "/api/v1/namespaces/"+ns+"/configmaps/cm1", "", "").Code,
		"the apiserver does not empty namespaces")

	ns1 := do(t, "GET", "/api/v1/namespaces/"+ns, "", "")
	require.Equal(t, http.StatusOK, ns1.Code)
	rv := get(ns1.Obj(t), "metadata", "resourceVersion")
	resp = do(t, "PUT", "/api/v1/namespaces/"+ns+"/finalize", "",
		fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q,"resourceVersion":%q},"spec":{"finalizers":[]}}`, ns, rv))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	require.Equal(t, http.StatusNotFound, do(t, "GET", "/api/v1/namespaces/"+ns, "", "").Code,
		"finalized with nothing else holding it, the namespace is gone")
}

func TestDefaultNamespacesExistAndAreImmortal(t *testing.T) {
	for _, name := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		require.Equal(t, http.StatusOK, do(t, "GET", "/api/v1/namespaces/"+name, "", "").Code, name)
	}
	resp := do(t, "DELETE", "/api/v1/namespaces/default", "", "")
	assert.Equal(t, http.StatusForbidden, resp.Code, resp.Body)
}
