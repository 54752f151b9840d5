package apiserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestUpdateWithStaleResourceVersionIsConflict(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	created := do(t, "POST", path, "", cmJSON("cm1", map[string]string{"a": "1"})).obj(t)
	rv := get(created, "metadata", "resourceVersion").(string)

	created["data"] = map[string]any{"a": "2"}
	b, _ := json.Marshal(created)
	require.Equal(t, http.StatusOK, do(t, "PUT", path+"/cm1", "", string(b)).Code)

	created["data"] = map[string]any{"a": "3"}
	b, _ = json.Marshal(created) // still carries the old rv
	resp := do(t, "PUT", path+"/cm1", "", string(b))
	require.Equal(t, http.StatusConflict, resp.Code, resp.Body)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
		"message":"Operation cannot be fulfilled on configmaps \"cm1\": the object has been modified; please apply your changes to the latest version and try again",
		"reason":"Conflict","details":{"name":"cm1","kind":"configmaps"},"code":409}`, resp.Body)
	_ = rv
}

func TestUpdateWithEmptyResourceVersionIsUnconditional(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", cmJSON("cm1", map[string]string{"a": "1"}))
	resp := do(t, "PUT", path+"/cm1", "", cmJSON("cm1", map[string]string{"a": "2"}))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "2", get(resp.obj(t), "data", "a"))
}

func TestUpdateThatChangesNothingKeepsResourceVersion(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	created := do(t, "POST", path, "", cmJSON("cm1", map[string]string{"a": "1"})).obj(t)
	b, _ := json.Marshal(created)
	resp := do(t, "PUT", path+"/cm1", "", string(b))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, get(created, "metadata", "resourceVersion"), get(resp.obj(t), "metadata", "resourceVersion"))
}

func TestUpdateOfMissingObjectIsNotFound(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "PUT", "/api/v1/namespaces/"+ns+"/configmaps/ghost", "", cmJSON("ghost", nil))
	require.Equal(t, http.StatusNotFound, resp.Code, resp.Body)
	assert.Equal(t, `configmaps "ghost" not found`, resp.obj(t)["message"])
}

func TestUpdateNameMismatchIsBadRequest(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", cmJSON("cm1", nil))
	resp := do(t, "PUT", path+"/cm1", "", cmJSON("cm2", nil))
	require.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
}

func podJSON(name string) string {
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":%q,"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`, name)
}

func TestGenerationBumpsOnSpecChangeOnly(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	created := do(t, "POST", path, "", podJSON("p1"))
	require.Equal(t, http.StatusCreated, created.Code, created.Body)

	// metadata-only change: generation stays 1
	resp := do(t, "PATCH", path+"/p1", mergePatchType, `{"metadata":{"labels":{"x":"y"}}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 1, get(resp.obj(t), "metadata", "generation"))

	// status change through /status: generation stays 1
	resp = do(t, "PATCH", path+"/p1/status", mergePatchType, `{"status":{"phase":"Running"}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 1, get(resp.obj(t), "metadata", "generation"))
	assert.Equal(t, "Running", get(resp.obj(t), "status", "phase"))

	// spec change: generation 2
	resp = do(t, "PATCH", path+"/p1", jsonPatchType, `[{"op":"replace","path":"/spec/containers/0/image","value":"nginx:2"}]`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 2, get(resp.obj(t), "metadata", "generation"))
}

func TestMainResourceIgnoresStatusAndStatusIgnoresSpec(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", podJSON("p1")).Code)

	resp := do(t, "PATCH", path+"/p1", mergePatchType, `{"status":{"phase":"Running"}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, "Pending", get(resp.obj(t), "status", "phase"))

	resp = do(t, "PATCH", path+"/p1/status", mergePatchType,
		`{"metadata":{"labels":{"s":"1"}},"spec":{"activeDeadlineSeconds":5},"status":{"phase":"Running"}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	obj := resp.obj(t)
	assert.Equal(t, "Running", get(obj, "status", "phase"))
	assert.Nil(t, get(obj, "spec", "activeDeadlineSeconds"))
	assert.Equal(t, "1", get(obj, "metadata", "labels", "s"), "/status writes may change labels")

	got := do(t, "GET", path+"/p1/status", "", "")
	require.Equal(t, http.StatusOK, got.Code)
	assert.Equal(t, "Running", get(got.obj(t), "status", "phase"))
}

func TestConcurrentReadModifyWriteLosesNoUpdate(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON("counter", map[string]string{"n": "0"})).Code)
	const clients, perClient = 50, 2
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range perClient {
				if err := incrementCounter(path + "/counter"); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	resp := do(t, "GET", path+"/counter", "", "")
	assert.Equal(t, fmt.Sprint(clients*perClient), get(resp.obj(t), "data", "n"))
}

// incrementCounter is a client's read-modify-write with retry on 409.
func incrementCounter(url string) error {
	for attempt := 0; attempt < 1000; attempt++ {
		resp, err := http.Get(baseURL + url)
		if err != nil {
			return err
		}
		var cm map[string]any
		err = json.NewDecoder(resp.Body).Decode(&cm)
		resp.Body.Close()
		if err != nil {
			return err
		}
		var n int
		fmt.Sscan(cm["data"].(map[string]any)["n"].(string), &n)
		cm["data"] = map[string]any{"n": fmt.Sprint(n + 1)}
		b, _ := json.Marshal(cm)
		req, _ := http.NewRequest("PUT", baseURL+url, bytesReader(b))
		req.Header.Set("Content-Type", "application/json")
		put, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		put.Body.Close()
		switch put.StatusCode {
		case http.StatusOK:
			return nil
		case http.StatusConflict:
			continue
		default:
			return fmt.Errorf("PUT: %d", put.StatusCode)
		}
	}
	return fmt.Errorf("gave up after 1000 conflicts")
}

func TestStrategicMergePatchMergesContainersByName(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/apps/v1/namespaces/" + ns + "/replicasets"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", rsJSON("rs1", 2)).Code)
	resp := do(t, "PATCH", path+"/rs1", strategicPatchType,
		`{"metadata":{"labels":{"added":"yes"}},"spec":{"template":{"spec":{"containers":[{"name":"extra","image":"busybox"}]}}}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	var rs api.ReplicaSet
	resp.decode(t, &rs)
	require.Len(t, rs.Spec.Template.Spec.Containers, 2, "the patch adds a container by name instead of replacing the list")
	assert.Equal(t, "yes", rs.Labels["added"])
	resp = do(t, "PATCH", path+"/rs1", strategicPatchType, `{"spec":{"template":{"spec":{"containers":[{"$patch":"explode","name":"x"}]}}}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
}
