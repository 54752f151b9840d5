package replicaset_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestDryRunScaleAnswersTheNewScaleAndKeepsTheReplicas(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/apps/v1/namespaces/" + ns + "/replicasets"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", rsJSON("rs1", 2)).Code)
	before := srv.EtcdRevision(t)

	resp := do(t, "PATCH", path+"/rs1/scale?dryRun=All", mergePatchType, `{"spec":{"replicas":5}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "Scale", resp.Obj(t)["kind"])
	assert.EqualValues(t, 5, get(resp.Obj(t), "spec", "replicas"))

	body := fmt.Sprintf(`{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"rs1","namespace":%q},"spec":{"replicas":9}}`, ns)
	resp = do(t, "PUT", path+"/rs1/scale?dryRun=All", "none", body)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 9, get(resp.Obj(t), "spec", "replicas"))

	resp = do(t, "PATCH", path+"/rs1/scale?dryRun=All", mergePatchType, `{"spec":{"replicas":-1}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, "the Scale is validated: %s", resp.Body)

	assert.Equal(t, before, srv.EtcdRevision(t), "nothing reached etcd")
	rs, err := srv.Stored(t, "apps", "replicasets", ns, "rs1")
	require.NoError(t, err)
	assert.EqualValues(t, 2, *rs.(*api.ReplicaSet).Spec.Replicas)
	assert.EqualValues(t, 2, get(do(t, "GET", path+"/rs1/scale", "", "").Obj(t), "spec", "replicas"))
}
