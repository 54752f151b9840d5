package namespace_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/apiservertest"
)

func TestNewNamespaceIsActiveWithTheKubernetesFinalizer(t *testing.T) {
	ns := srv.NewNamespace(t)
	obj := srv.Do(t, "GET", "/api/v1/namespaces/"+ns, "", "").Obj(t)
	assert.Equal(t, "Active", get(obj, "status", "phase"))
	assert.Equal(t, []any{"kubernetes"}, get(obj, "spec", "finalizers"))
}

func TestDryRunDeleteOfANamespaceAnswersItTerminatingAndKeepsItActive(t *testing.T) {
	ns := srv.NewNamespace(t)
	before := srv.EtcdRevision(t)
	resp := srv.Do(t, "DELETE", "/api/v1/namespaces/"+ns+"?dryRun=All", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "Terminating", get(resp.Obj(t), "status", "phase"))
	assert.NotNil(t, get(resp.Obj(t), "metadata", "deletionTimestamp"))
	assert.Equal(t, before, srv.EtcdRevision(t), "nothing reached etcd")

	obj, err := srv.Stored(t, "", "namespaces", "", ns)
	require.NoError(t, err)
	assert.Equal(t, api.NamespaceActive, obj.(*api.Namespace).Status.Phase)
	// Nothing started emptying it: content can still be created.
	resp = srv.Do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", apiservertest.ConfigMapJSON("after", nil))
	assert.Equal(t, http.StatusCreated, resp.Code, resp.Body)

	resp = srv.Do(t, "DELETE", "/api/v1/namespaces/default?dryRun=All", "", "")
	assert.Equal(t, http.StatusForbidden, resp.Code, "admission runs for dry runs too: %s", resp.Body)
}
