package generic_test

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

func TestDeleteWithWrongUIDPreconditionIsConflict(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	created := do(t, "POST", path, "", cmJSON("cm1", nil)).Obj(t)
	resp := do(t, "DELETE", path+"/cm1", "", `{"preconditions":{"uid":"wrong"}}`)
	require.Equal(t, http.StatusConflict, resp.Code, resp.Body)
	assert.Equal(t, `Operation cannot be fulfilled on configmaps "cm1": Precondition failed: UID in precondition: wrong, UID in object meta: `+
		get(created, "metadata", "uid").(string), resp.Obj(t)["message"])
	assert.Equal(t, http.StatusOK, do(t, "GET", path+"/cm1", "", "").Code)
}

func TestFinalizerBlocksDeletionUntilRemoved(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	resp := do(t, "POST", path, "", `{"metadata":{"name":"cm1","finalizers":["example.com/hold"]}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)

	resp = do(t, "DELETE", path+"/cm1", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	obj := resp.Obj(t)
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
		assert.Equal(t, []any{finalizer}, get(resp.Obj(t), "metadata", "finalizers"))
		assert.NotNil(t, get(resp.Obj(t), "metadata", "deletionTimestamp"))
	}
	resp := do(t, "DELETE", path+"/cm-orphan", "", `{"propagationPolicy":"Sideways"}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
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
	_, err := store.New(srv.Etcd.Client(), info).GuaranteedUpdate(context.Background(), info.Key(ns, "stuck"), nil,
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
