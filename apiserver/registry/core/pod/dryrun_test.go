package pod_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestDryRunBindingAnswersSuccessAndLeavesThePodUnbound(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", podJSON("p1")).Code)
	before := srv.EtcdRevision(t)
	resp := do(t, "POST", path+"/p1/binding?dryRun=All", "", `{"metadata":{"name":"p1"},"target":{"kind":"Node","name":"n1"}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Equal(t, "Success", resp.Obj(t)["status"])
	resp = do(t, "POST", path+"/p1/binding?dryRun=All", "", `{"metadata":{"name":"p1"},"target":{"kind":"Node"}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, "the binding is still validated: %s", resp.Body)

	assert.Equal(t, before, srv.EtcdRevision(t), "nothing reached etcd")
	pod, err := srv.Stored(t, "", "pods", ns, "p1")
	require.NoError(t, err)
	assert.Empty(t, pod.(*api.Pod).Spec.NodeName)
	// The real binding still works afterwards: the dry run took nothing.
	resp = do(t, "POST", path+"/p1/binding", "", `{"metadata":{"name":"p1"},"target":{"kind":"Node","name":"n1"}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
}

func TestDryRunDeleteOfABoundPodAnswersItMarkedAndKeepsItRunning(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", podJSON("p1")).Code)
	require.Equal(t, http.StatusCreated, do(t, "POST", path+"/p1/binding", "", `{"target":{"name":"n1"}}`).Code)
	before := srv.EtcdRevision(t)
	resp := do(t, "DELETE", path+"/p1?dryRun=All", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 30, get(resp.Obj(t), "metadata", "deletionGracePeriodSeconds"))
	assert.NotNil(t, get(resp.Obj(t), "metadata", "deletionTimestamp"))
	assert.Equal(t, before, srv.EtcdRevision(t), "nothing reached etcd")
	pod, err := srv.Stored(t, "", "pods", ns, "p1")
	require.NoError(t, err)
	assert.Nil(t, pod.GetObjectMeta().DeletionTimestamp)
}
