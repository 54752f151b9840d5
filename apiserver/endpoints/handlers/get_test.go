package handlers_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver"
	"kubeloop/store/storetest"
)

func TestGroupQualifiedNotFound(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "GET", "/apis/apps/v1/namespaces/"+ns+"/replicasets/x", "", "")
	require.Equal(t, http.StatusNotFound, resp.Code)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
		"message":"replicasets.apps \"x\" not found","reason":"NotFound","details":{"name":"x","group":"apps","kind":"replicasets"},"code":404}`, resp.Body)
}

func TestListRightAfterWriteSeesIt(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	for i := range 5 {
		name := "cm" + string(rune('a'+i))
		require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON(name, nil)).Code)
		list := do(t, "GET", path, "", "").Obj(t)
		assert.Len(t, list["items"], i+1)
	}
}

func TestListSelectorsAndPaging(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	for _, n := range []string{"a", "b", "c"} {
		do(t, "POST", path, "", `{"metadata":{"name":"`+n+`","labels":{"l":"`+n+`"}}}`)
	}
	list := do(t, "GET", path+"?labelSelector=l+in+(a,c)", "", "").Obj(t)
	assert.Equal(t, "ConfigMapList", list["kind"])
	assert.Len(t, list["items"], 2)

	list = do(t, "GET", path+"?fieldSelector=metadata.name%3Db", "", "").Obj(t)
	assert.Len(t, list["items"], 1)

	resp := do(t, "GET", path+"?fieldSelector=spec.foo%3Dx", "", "")
	require.Equal(t, http.StatusBadRequest, resp.Code)
	assert.Equal(t, `"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"`, resp.Obj(t)["message"])

	resp = do(t, "GET", path+"?labelSelector=a%20in%20(", "", "")
	assert.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)

	page := do(t, "GET", path+"?limit=2", "", "").Obj(t)
	assert.Len(t, page["items"], 2)
	cont := get(page, "metadata", "continue").(string)
	require.NotEmpty(t, cont)
	rest := do(t, "GET", path+"?limit=2&continue="+cont, "", "").Obj(t)
	assert.Len(t, rest["items"], 1)
	assert.Equal(t, get(page, "metadata", "resourceVersion"), get(rest, "metadata", "resourceVersion"))

	resp = do(t, "GET", path+"?limit=2&continue=garbage!!", "", "")
	assert.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
}

func TestPodFieldSelectorOnNodeName(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	do(t, "POST", path, "", podJSON("p1"))
	do(t, "POST", path, "", podJSON("p2"))
	// The list spans every namespace and other tests bind pods too: a node
	// name of this test's own keeps their pods out of the selection.
	node := ns + "-node"
	require.Equal(t, http.StatusCreated, do(t, "POST", path+"/p1/binding", "", `{"target":{"name":"`+node+`"}}`).Code)
	list := do(t, "GET", "/api/v1/pods?fieldSelector=spec.nodeName%3D"+node, "", "").Obj(t)
	items := list["items"].([]any)
	require.Len(t, items, 1)
	assert.Equal(t, "p1", get(items[0].(map[string]any), "metadata", "name"))
}

// An expired continue token (its revision compacted away) is 410, not 400.
// This test compacts, so it runs on its own etcd.
func TestContinueTokenAfterCompactionIsExpired(t *testing.T) {
	e := storetest.StartEtcd(t)
	s, err := apiserver.New(apiserver.Config{Etcd: e.Client(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	fetch := func(path string) response {
		resp, err := http.Get(hs.URL + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return response{Code: resp.StatusCode, Body: string(b)}
	}
	for _, n := range []string{"a", "b", "c"} {
		resp, err := http.Post(hs.URL+"/api/v1/namespaces/default/configmaps", "application/json", bytesReader([]byte(cmJSON(n, nil))))
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusCreated, resp.StatusCode)
	}
	page := fetch("/api/v1/namespaces/default/configmaps?limit=1")
	require.Equal(t, http.StatusOK, page.Code)
	cont, _ := get(page.Obj(t), "metadata", "continue").(string)
	require.NotEmpty(t, cont)

	resp, err := http.Post(hs.URL+"/api/v1/namespaces/default/configmaps", "application/json", bytesReader([]byte(cmJSON("d", nil))))
	require.NoError(t, err)
	resp.Body.Close()
	status, err := e.Client().Status(context.Background(), e.Endpoints()[0])
	require.NoError(t, err)
	_, err = e.Client().Compact(context.Background(), status.Header.Revision)
	require.NoError(t, err)

	expired := fetch("/api/v1/namespaces/default/configmaps?limit=1&continue=" + cont)
	require.Equal(t, http.StatusGone, expired.Code, expired.Body)
	assert.Equal(t, "Expired", expired.Obj(t)["reason"])
}
