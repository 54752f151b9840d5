package handlers_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func etcdRevision(t *testing.T) int64 { return srv.EtcdRevision(t) }

func stored(t *testing.T, group, resource, ns, name string) (api.Object, error) {
	return srv.Stored(t, group, resource, ns, name)
}

func TestDryRunCreateAnswersWhatWouldBeStoredAndStoresNothing(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	before := etcdRevision(t)
	resp := do(t, "POST", path+"?dryRun=All", "", `{"metadata":{"name":"dry"},"spec":{"containers":[{"name":"c","image":"nginx"}]},"status":{"podIP":"1.2.3.4"}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	pod := resp.Obj(t)
	assert.Len(t, get(pod, "metadata", "uid"), 36, "server-owned metadata is set")
	assert.NotEmpty(t, get(pod, "metadata", "creationTimestamp"))
	assert.EqualValues(t, 1, get(pod, "metadata", "generation"))
	assert.Nil(t, get(pod, "metadata", "resourceVersion"), "nothing was written, so there is no resourceVersion")
	assert.Equal(t, "Always", get(pod, "spec", "restartPolicy"), "defaulting ran")
	assert.Equal(t, "Pending", get(pod, "status", "phase"), "the strategy prepared it")
	assert.Nil(t, get(pod, "status", "podIP"))

	assert.Equal(t, before, etcdRevision(t), "nothing reached etcd")
	_, err := stored(t, "", "pods", ns, "dry")
	assert.True(t, api.IsNotFound(err), "got %v", err)
	assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/dry", "", "").Code)
}

func TestDryRunCreateRunsValidationAdmissionAndTheExistenceCheck(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	resp := do(t, "POST", path+"?dryRun=All", "", cmJSON("Bad_Name", nil))
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)

	resp = do(t, "POST", "/api/v1/namespaces/nope-missing/configmaps?dryRun=All", "", cmJSON("x", nil))
	require.Equal(t, http.StatusNotFound, resp.Code, resp.Body)
	assert.Equal(t, `namespaces "nope-missing" not found`, resp.Obj(t)["message"])

	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON("taken", nil)).Code)
	resp = do(t, "POST", path+"?dryRun=All", "", cmJSON("taken", nil))
	require.Equal(t, http.StatusConflict, resp.Code, resp.Body)
	assert.Equal(t, `configmaps "taken" already exists`, resp.Obj(t)["message"])

	resp = do(t, "POST", path+"?dryRun=All", "", `{"metadata":{"generateName":"gen-"}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Regexp(t, `^gen-[a-z0-9]{5}$`, get(resp.Obj(t), "metadata", "name"))
}

func TestDryRunUpdateAndPatchAnswerTheNewObjectAndKeepTheOld(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/apps/v1/namespaces/" + ns + "/replicasets"
	created := do(t, "POST", path, "", rsJSON("rs1", 2))
	require.Equal(t, http.StatusCreated, created.Code, created.Body)
	rv := get(created.Obj(t), "metadata", "resourceVersion")

	before := etcdRevision(t)
	resp := do(t, "PATCH", path+"/rs1?dryRun=All", mergePatchType, `{"spec":{"replicas":5}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 5, get(resp.Obj(t), "spec", "replicas"))
	assert.EqualValues(t, 2, get(resp.Obj(t), "metadata", "generation"), "the spec changed, so generation would move")
	assert.Equal(t, rv, get(resp.Obj(t), "metadata", "resourceVersion"))

	obj := created.Obj(t)
	obj["spec"].(map[string]any)["replicas"] = 7
	body, _ := json.Marshal(obj)
	resp = do(t, "PUT", path+"/rs1?dryRun=All", "", string(body))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 7, get(resp.Obj(t), "spec", "replicas"))

	resp = do(t, "PATCH", path+"/rs1?dryRun=All", mergePatchType, `{"spec":{"replicas":-1}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, "validation runs: %s", resp.Body)

	assert.Equal(t, before, etcdRevision(t), "nothing reached etcd")
	cur, err := stored(t, "apps", "replicasets", ns, "rs1")
	require.NoError(t, err)
	assert.EqualValues(t, 2, *cur.(*api.ReplicaSet).Spec.Replicas)
	assert.EqualValues(t, 1, cur.GetObjectMeta().Generation)
}

func TestDryRunOfTheStatusSubresourceStoresNothing(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", podJSON("p1")).Code)
	before := etcdRevision(t)
	resp := do(t, "PATCH", path+"/p1/status?dryRun=All", mergePatchType, `{"status":{"phase":"Running"}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "Running", get(resp.Obj(t), "status", "phase"))
	assert.Equal(t, before, etcdRevision(t))
	cur, err := stored(t, "", "pods", ns, "p1")
	require.NoError(t, err)
	assert.Equal(t, api.PodPending, cur.(*api.Pod).Status.Phase)
}

func TestDryRunDeleteAnswersTheObjectAndKeepsIt(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON("keep", nil)).Code)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", `{"metadata":{"name":"held","finalizers":["example.com/hold"]}}`).Code)
	before := etcdRevision(t)

	resp := do(t, "DELETE", path+"/keep?dryRun=All", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "keep", get(resp.Obj(t), "metadata", "name"))

	// The dryRun of client-go and kubectl comes in the DeleteOptions body.
	resp = do(t, "DELETE", path+"/held", "", `{"kind":"DeleteOptions","apiVersion":"v1","dryRun":["All"]}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.NotNil(t, get(resp.Obj(t), "metadata", "deletionTimestamp"), "the answer is the object as the delete would mark it")

	resp = do(t, "DELETE", path+"?dryRun=All", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Len(t, resp.Obj(t)["items"], 2)

	resp = do(t, "DELETE", path+"/ghost?dryRun=All", "", "")
	assert.Equal(t, http.StatusNotFound, resp.Code, resp.Body)

	assert.Equal(t, before, etcdRevision(t), "nothing reached etcd")
	for _, name := range []string{"keep", "held"} {
		obj, err := stored(t, "", "configmaps", ns, name)
		require.NoError(t, err, name)
		assert.Nil(t, obj.GetObjectMeta().DeletionTimestamp, name)
	}
}

func TestDryRunValueOtherThanAllIsInvalid(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON("cm1", nil)).Code)
	for _, c := range []struct{ method, url, body, kind, values string }{
		{"POST", path + "?dryRun=Bogus", cmJSON("cm2", nil), "CreateOptions", `["Bogus"]`},
		{"PUT", path + "/cm1?dryRun=All&dryRun=x", cmJSON("cm1", nil), "UpdateOptions", `["All","x"]`},
		{"PATCH", path + "/cm1?dryRun=", `{}`, "PatchOptions", `[""]`},
		{"DELETE", path + "/cm1", `{"dryRun":["Some"]}`, "DeleteOptions", `["Some"]`},
		{"DELETE", path + "?dryRun=true", "", "DeleteOptions", `["true"]`},
	} {
		ct := ""
		if c.method == "PATCH" {
			ct = mergePatchType
		}
		resp := do(t, c.method, c.url, ct, c.body)
		require.Equal(t, http.StatusUnprocessableEntity, resp.Code, "%s %s: %s", c.method, c.url, resp.Body)
		st := resp.Obj(t)
		assert.Equal(t, "Invalid", st["reason"])
		assert.Equal(t, c.kind+`.meta.k8s.io "" is invalid: dryRun: Unsupported value: `+c.values+`: supported values: "All"`, st["message"])
	}
	_, err := stored(t, "", "configmaps", ns, "cm2")
	assert.True(t, api.IsNotFound(err))
	_, err = stored(t, "", "configmaps", ns, "cm1")
	assert.NoError(t, err, "the refused deletes deleted nothing")
}
