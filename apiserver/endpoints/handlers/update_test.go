package handlers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUpdateWithStaleResourceVersionIsConflict(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	created := do(t, "POST", path, "", cmJSON("cm1", map[string]string{"a": "1"})).Obj(t)
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
	assert.Equal(t, "2", get(resp.Obj(t), "data", "a"))
}

func TestUpdateOfMissingObjectIsNotFound(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "PUT", "/api/v1/namespaces/"+ns+"/configmaps/ghost", "", cmJSON("ghost", nil))
	require.Equal(t, http.StatusNotFound, resp.Code, resp.Body)
	assert.Equal(t, `configmaps "ghost" not found`, resp.Obj(t)["message"])
}

func TestUpdateNameMismatchIsBadRequest(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", cmJSON("cm1", nil))
	resp := do(t, "PUT", path+"/cm1", "", cmJSON("cm2", nil))
	require.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
}

func TestConcurrentReadModifyWriteLosesNoUpdate(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON("counter", map[string]string{"n": "0"})).Code)
	// Every round all clients read and one wins, so the tries grow with
	// clients × increments: 20 × 3 keeps the race detector's run short.
	const clients, perClient = 20, 3
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
	assert.Equal(t, fmt.Sprint(clients*perClient), get(resp.Obj(t), "data", "n"))
}

// incrementCounter is a client's read-modify-write with retry on 409.
func incrementCounter(url string) error {
	for attempt := 0; attempt < 1000; attempt++ {
		resp, err := srv.HTTPClient().Get(srv.URL + url)
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
		req, _ := http.NewRequest("PUT", srv.URL+url, bytesReader(b))
		req.Header.Set("Content-Type", "application/json")
		put, err := srv.HTTPClient().Do(req)
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
