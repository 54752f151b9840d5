package pod_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreatePodGetsGenerationOneAndResetsStatus(t *testing.T) {
	ns := newNamespace(t)
	body := `{"metadata":{"name":"p1"},"spec":{"containers":[{"name":"c","image":"nginx"}]},"status":{"phase":"Running","podIP":"1.2.3.4"}}`
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/pods", "", body)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	obj := resp.Obj(t)
	assert.EqualValues(t, 1, get(obj, "metadata", "generation"))
	assert.Nil(t, get(obj, "status", "podIP"))
	assert.Equal(t, "Pending", get(obj, "status", "phase"))
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
	obj := resp.Obj(t)
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
