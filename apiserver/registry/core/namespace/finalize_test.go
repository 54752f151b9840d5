package namespace_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// namespaceBody is a Namespace manifest with the given resourceVersion,
// spec.finalizers and status phase.
func namespaceBody(name, rv string, finalizers []string, phase string) string {
	fs, err := json.Marshal(finalizers)
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q,"resourceVersion":%q},"spec":{"finalizers":%s},"status":{"phase":%q}}`,
		name, rv, fs, phase)
}

func resourceVersion(t *testing.T, ns string) string {
	t.Helper()
	resp := srv.Do(t, "GET", "/api/v1/namespaces/"+ns, "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	return get(resp.Obj(t), "metadata", "resourceVersion").(string)
}

func storedNamespace(t *testing.T, name string) *api.Namespace {
	t.Helper()
	obj, err := srv.Stored(t, "", "namespaces", "", name)
	require.NoError(t, err)
	return obj.(*api.Namespace)
}

func TestFinalizeWritesSpecFinalizersAndKeepsTheStoredStatus(t *testing.T) {
	ns := srv.NewNamespace(t)
	resp := srv.Do(t, "PUT", "/api/v1/namespaces/"+ns+"/finalize", "",
		namespaceBody(ns, resourceVersion(t, ns), []string{"example.com/cleanup"}, "Terminating"))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, []any{"example.com/cleanup"}, get(resp.Obj(t), "spec", "finalizers"))
	stored := storedNamespace(t, ns)
	assert.Equal(t, []api.FinalizerName{"example.com/cleanup"}, stored.Spec.Finalizers)
	assert.Equal(t, api.NamespaceActive, stored.Status.Phase, "finalize does not write status")
}

func TestAnUpdateOfTheNamespaceKeepsItsSpecFinalizers(t *testing.T) {
	ns := srv.NewNamespace(t)
	resp := srv.Do(t, "PUT", "/api/v1/namespaces/"+ns, "",
		namespaceBody(ns, resourceVersion(t, ns), nil, "Active"))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, []any{"kubernetes"}, get(resp.Obj(t), "spec", "finalizers"),
		"only namespaces/NAME/finalize changes spec.finalizers")
	assert.Equal(t, []api.FinalizerName{api.FinalizerKubernetes}, storedNamespace(t, ns).Spec.Finalizers)
}

func TestFinalizeRefusesABadFinalizerNameAndAStaleVersion(t *testing.T) {
	ns := srv.NewNamespace(t)
	rv := resourceVersion(t, ns)
	resp := srv.Do(t, "PUT", "/api/v1/namespaces/"+ns+"/finalize", "", namespaceBody(ns, rv, []string{"not a name!"}, "Active"))
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, "Invalid", get(resp.Obj(t), "reason"))
	assert.Contains(t, get(resp.Obj(t), "message"), "spec.finalizers[0]")

	resp = srv.Do(t, "PUT", "/api/v1/namespaces/"+ns+"/finalize", "", namespaceBody(ns, "1", nil, "Active"))
	require.Equal(t, http.StatusConflict, resp.Code, resp.Body)
	assert.Equal(t, []api.FinalizerName{api.FinalizerKubernetes}, storedNamespace(t, ns).Spec.Finalizers, "nothing changed")
	assert.Equal(t, rv, resourceVersion(t, ns))
}

func TestFinalizeOfAnActiveNamespaceLeavesItInPlace(t *testing.T) {
	ns := srv.NewNamespace(t)
	resp := srv.Do(t, "PUT", "/api/v1/namespaces/"+ns+"/finalize", "", namespaceBody(ns, resourceVersion(t, ns), nil, "Active"))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Empty(t, storedNamespace(t, ns).Spec.Finalizers)
	assert.Equal(t, http.StatusOK, srv.Do(t, "GET", "/api/v1/namespaces/"+ns, "", "").Code, "only a terminating namespace goes")
}

// A status write to a terminating namespace (the namespace controller's
// conditions) must not remove it while spec.finalizers still hold it,
// although its metadata has no finalizer and no grace period.
func TestStatusWritesDoNotRemoveATerminatingNamespaceItsFinalizerHolds(t *testing.T) {
	ns := srv.NewNamespace(t)
	// A metadata finalizer of its own keeps it after finalize, until that
	// one goes too (none may be added once it is terminating).
	resp := srv.Do(t, "PATCH", "/api/v1/namespaces/"+ns, "application/merge-patch+json", `{"metadata":{"finalizers":["example.com/last"]}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	require.Equal(t, http.StatusOK, srv.Do(t, "DELETE", "/api/v1/namespaces/"+ns, "", "").Code)

	body := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q},"status":{"phase":"Terminating","conditions":[{"type":"NamespaceContentRemaining","status":"True","reason":"SomeResourcesRemain","message":"m"}]}}`, ns)
	resp = srv.Do(t, "PUT", "/api/v1/namespaces/"+ns+"/status", "", body)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	resp = srv.Do(t, "PATCH", "/api/v1/namespaces/"+ns, "application/merge-patch+json", `{"metadata":{"finalizers":null}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	stored := storedNamespace(t, ns)
	require.Len(t, stored.Status.Conditions, 1, "still there after a status write and a metadata write")
	assert.Equal(t, api.NamespaceContentRemaining, stored.Status.Conditions[0].Type)
	assert.Equal(t, []api.FinalizerName{api.FinalizerKubernetes}, stored.Spec.Finalizers)

	resp = srv.Do(t, "PUT", "/api/v1/namespaces/"+ns+"/finalize", "", namespaceBody(ns, resourceVersion(t, ns), nil, "Terminating"))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, http.StatusNotFound, srv.Do(t, "GET", "/api/v1/namespaces/"+ns, "", "").Code,
		"the finalize that leaves nothing holding it removes it")
}

func TestFinalizedNamespaceHeldByAMetadataFinalizerGoesWhenThatGoes(t *testing.T) {
	ns := srv.NewNamespace(t)
	resp := srv.Do(t, "PATCH", "/api/v1/namespaces/"+ns, "application/merge-patch+json", `{"metadata":{"finalizers":["example.com/last"]}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	require.Equal(t, http.StatusOK, srv.Do(t, "DELETE", "/api/v1/namespaces/"+ns, "", "").Code)
	// Like every PUT, the body's metadata is what is stored: the
	// namespace controller sends the namespace it read, finalizers and all.
	resp = srv.Do(t, "PUT", "/api/v1/namespaces/"+ns+"/finalize", "", fmt.Sprintf(
		`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q,"resourceVersion":%q,"finalizers":["example.com/last"]},"spec":{"finalizers":[]}}`,
		ns, resourceVersion(t, ns)))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	require.Equal(t, http.StatusOK, srv.Do(t, "GET", "/api/v1/namespaces/"+ns, "", "").Code, "its own finalizer still holds it")
	assert.Empty(t, storedNamespace(t, ns).Spec.Finalizers)
	resp = srv.Do(t, "PATCH", "/api/v1/namespaces/"+ns, "application/merge-patch+json", `{"metadata":{"finalizers":null}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, http.StatusNotFound, srv.Do(t, "GET", "/api/v1/namespaces/"+ns, "", "").Code)
}

func TestDiscoveryListsTheFinalizeSubresource(t *testing.T) {
	resp := srv.Do(t, "GET", "/api/v1", "", "")
	require.Equal(t, http.StatusOK, resp.Code)
	var list struct {
		Resources []struct {
			Name  string   `json:"name"`
			Kind  string   `json:"kind"`
			Verbs []string `json:"verbs"`
		} `json:"resources"`
	}
	resp.Decode(t, &list)
	found := false
	for _, r := range list.Resources {
		if r.Name == "namespaces/finalize" {
			found = true
			assert.Equal(t, "Namespace", r.Kind)
			assert.Equal(t, []string{"update"}, r.Verbs)
		}
	}
	assert.True(t, found, "namespaces/finalize is in /api/v1")
}
