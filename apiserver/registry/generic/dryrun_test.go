package generic_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Removing the last finalizer of a deleting object deletes it — but not in
// a dry run, whose answer is the object as the update would leave it.
func TestDryRunUpdateThatWouldFinishADeletionDeletesNothing(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", `{"metadata":{"name":"held","finalizers":["example.com/hold"]}}`).Code)
	require.Equal(t, http.StatusOK, do(t, "DELETE", path+"/held", "", "").Code)
	before := srv.EtcdRevision(t)

	resp := do(t, "PATCH", path+"/held?dryRun=All", "application/merge-patch+json", `{"metadata":{"finalizers":null}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Nil(t, get(resp.Obj(t), "metadata", "finalizers"))
	assert.NotNil(t, get(resp.Obj(t), "metadata", "deletionTimestamp"))

	assert.Equal(t, before, srv.EtcdRevision(t), "nothing reached etcd")
	obj, err := srv.Stored(t, "", "configmaps", ns, "held")
	require.NoError(t, err, "still there")
	assert.Equal(t, []string{"example.com/hold"}, obj.GetObjectMeta().Finalizers)
}

func TestDryRunDeleteStillChecksPreconditions(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON("cm1", nil)).Code)
	resp := do(t, "DELETE", path+"/cm1?dryRun=All", "", `{"preconditions":{"uid":"wrong"}}`)
	require.Equal(t, http.StatusConflict, resp.Code, resp.Body)
	assert.Contains(t, resp.Obj(t)["message"], "Precondition failed: UID in precondition: wrong")
}
