package apiserver

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

func TestDeleteRemovesObjectAndReturnsIt(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", cmJSON("cm1", nil))
	resp := do(t, "DELETE", path+"/cm1", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "cm1", get(resp.obj(t), "metadata", "name"))
	assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/cm1", "", "").Code)
}

func TestDeleteAcceptsClientGoBodyWithoutContentType(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", cmJSON("cm1", nil))
	resp := do(t, "DELETE", path+"/cm1", "none", `{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background"}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/cm1", "", "").Code)
}

func TestDeleteWithWrongUIDPreconditionIsConflict(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	created := do(t, "POST", path, "", cmJSON("cm1", nil)).obj(t)
	resp := do(t, "DELETE", path+"/cm1", "", `{"preconditions":{"uid":"wrong"}}`)
	require.Equal(t, http.StatusConflict, resp.Code, resp.Body)
	assert.Equal(t, `Operation cannot be fulfilled on configmaps "cm1": Precondition failed: UID in precondition: wrong, UID in object meta: `+
		get(created, "metadata", "uid").(string), resp.obj(t)["message"])
	assert.Equal(t, http.StatusOK, do(t, "GET", path+"/cm1", "", "").Code)
}

func TestDeleteMissingIsNotFound(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "DELETE", "/api/v1/namespaces/"+ns+"/configmaps/ghost", "", "")
	require.Equal(t, http.StatusNotFound, resp.Code)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
		"message":"configmaps \"ghost\" not found","reason":"NotFound","details":{"name":"ghost","kind":"configmaps"},"code":404}`, resp.Body)
}

func TestFinalizerBlocksDeletionUntilRemoved(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	resp := do(t, "POST", path, "", `{"metadata":{"name":"cm1","finalizers":["example.com/hold"]}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)

	resp = do(t, "DELETE", path+"/cm1", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	obj := resp.obj(t)
	assert.NotNil(t, get(obj, "metadata", "deletionTimestamp"))
	assert.EqualValues(t, 0, get(obj, "metadata", "deletionGracePeriodSeconds"))
	assert.Equal(t, http.StatusOK, do(t, "GET", path+"/cm1", "", "").Code, "still there")

	resp = do(t, "PATCH", path+"/cm1", mergePatchType, `{"metadata":{"finalizers":null}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/cm1", "", "").Code)
}

func TestPropagationPolicyAddsGarbageCollectorFinalizers(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	for policy, finalizer := range map[string]string{"Orphan": "orphan", "Foreground": "foregroundDeletion"} {
		name := "cm-" + strings.ToLower(policy)
		do(t, "POST", path, "", cmJSON(name, nil))
		resp := do(t, "DELETE", path+"/"+name, "", `{"propagationPolicy":"`+policy+`"}`)
		require.Equal(t, http.StatusOK, resp.Code, resp.Body)
		assert.Equal(t, []any{finalizer}, get(resp.obj(t), "metadata", "finalizers"))
		assert.NotNil(t, get(resp.obj(t), "metadata", "deletionTimestamp"))
	}
	resp := do(t, "DELETE", path+"/cm-orphan", "", `{"propagationPolicy":"Sideways"}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
}

func TestBoundPodIsDeletedGracefullyUnboundAtOnce(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", podJSON("unbound")).Code)
	resp := do(t, "DELETE", path+"/unbound", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/unbound", "", "").Code)

	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", podJSON("bound")).Code)
	resp = do(t, "POST", path+"/bound/binding", "", `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"bound"},"target":{"kind":"Node","name":"n1"}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)

	before := time.Now()
	resp = do(t, "DELETE", path+"/bound", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	obj := resp.obj(t)
	assert.EqualValues(t, 30, get(obj, "metadata", "deletionGracePeriodSeconds"))
	ts, err := time.Parse(time.RFC3339, get(obj, "metadata", "deletionTimestamp").(string))
	require.NoError(t, err)
	assert.WithinDuration(t, before.Add(30*time.Second), ts, 3*time.Second)
	assert.Equal(t, http.StatusOK, do(t, "GET", path+"/bound", "", "").Code, "kubelet has not finished it yet")

	// The kubelet finishes it with grace 0.
	resp = do(t, "DELETE", path+"/bound", "", `{"gracePeriodSeconds":0}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/bound", "", "").Code)
}

func TestDeleteCollectionHonoursLabelSelector(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", `{"metadata":{"name":"a","labels":{"app":"x"}}}`)
	do(t, "POST", path, "", `{"metadata":{"name":"b","labels":{"app":"x"}}}`)
	do(t, "POST", path, "", `{"metadata":{"name":"c","labels":{"app":"y"}}}`)
	resp := do(t, "DELETE", path+"?labelSelector=app%3Dx", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Len(t, resp.obj(t)["items"], 2)
	list := do(t, "GET", path, "", "").obj(t)
	items := list["items"].([]any)
	require.Len(t, items, 1)
	assert.Equal(t, "c", get(items[0].(map[string]any), "metadata", "name"))
}

func TestDeleteNamespaceEmptiesAndRemovesIt(t *testing.T) {
	ns := newNamespace(t)
	do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", cmJSON("cm1", nil))
	resp := do(t, "DELETE", "/api/v1/namespaces/"+ns, "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "Terminating", get(resp.obj(t), "status", "phase"))
	assert.NotNil(t, get(resp.obj(t), "metadata", "deletionTimestamp"))

	resp = do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", cmJSON("late", nil))
	assert.Equal(t, http.StatusForbidden, resp.Code, "no creates in a terminating namespace: %s", resp.Body)

	require.Eventually(t, func() bool {
		return do(t, "GET", "/api/v1/namespaces/"+ns, "", "").Code == http.StatusNotFound
	}, 20*time.Second, 50*time.Millisecond)
	assert.Equal(t, http.StatusNotFound, do(t, "GET", "/api/v1/namespaces/"+ns+"/configmaps/cm1", "", "").Code)
}

func TestDefaultNamespacesExistAndAreImmortal(t *testing.T) {
	for _, name := range defaultNamespaces() {
		require.Equal(t, http.StatusOK, do(t, "GET", "/api/v1/namespaces/"+name, "", "").Code, name)
	}
	resp := do(t, "DELETE", "/api/v1/namespaces/default", "", "")
	assert.Equal(t, http.StatusForbidden, resp.Code, resp.Body)
}

// The write that removed the last finalizer may lose the race to delete
// (another write lands in between): the next write of the deleting object
// must finish the deletion instead of leaving it stuck.
func TestWriteToDeletingObjectWithoutFinalizersFinishesTheDeletion(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "",
		`{"metadata":{"name":"stuck","finalizers":["example.com/hold"]}}`).Code)
	require.Equal(t, http.StatusOK, do(t, "DELETE", path+"/stuck", "", "").Code)

	// Remove the finalizer under the apiserver, as if its delete had been
	// overtaken: the object is left deleting with nothing to wait for.
	info, ok := api.Builtin().ForResource("", "configmaps")
	require.True(t, ok)
	_, err := store.New(etcd.Client(), info).GuaranteedUpdate(context.Background(), info.Key(ns, "stuck"), nil,
		func(cur api.Object) (api.Object, error) {
			cur.GetObjectMeta().Finalizers = nil
			return cur, nil
		}, nil)
	require.NoError(t, err)

	resp := do(t, "PATCH", path+"/stuck", "application/merge-patch+json", `{"metadata":{"labels":{"touched":"yes"}}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	require.Eventually(t, func() bool {
		return do(t, "GET", path+"/stuck", "", "").Code == http.StatusNotFound
	}, 20*time.Second, 20*time.Millisecond, "the deletion was finished by the next write")
}
