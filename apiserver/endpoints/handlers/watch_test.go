package handlers_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// watchStream opens a watch and returns its decoded events as they arrive.
func watchStream(t *testing.T, path string) (*http.Response, <-chan map[string]any) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+path, nil)
	require.NoError(t, err)
	resp, err := srv.HTTPClient().Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	events := make(chan map[string]any, 100)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var ev map[string]any
			if json.Unmarshal(sc.Bytes(), &ev) == nil {
				events <- ev
			}
		}
	}()
	return resp, events
}

func nextEvent(t *testing.T, events <-chan map[string]any) map[string]any {
	t.Helper()
	select {
	case ev, ok := <-events:
		require.True(t, ok, "watch ended early")
		return ev
	case <-time.After(20 * time.Second):
		t.Fatal("no watch event within 20s")
	}
	return nil
}

func TestWatchSeesCreateUpdateDeleteInOrder(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	list := do(t, "GET", path, "", "").Obj(t)
	rv := get(list, "metadata", "resourceVersion").(string)
	require.NotEmpty(t, rv)

	resp, events := watchStream(t, path+"?watch=true&resourceVersion="+rv)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))

	created := do(t, "POST", path, "", cmJSON("cm1", map[string]string{"a": "1"})).Obj(t)
	updated := do(t, "PUT", path+"/cm1", "", cmJSON("cm1", map[string]string{"a": "2"})).Obj(t)
	require.Equal(t, http.StatusOK, do(t, "DELETE", path+"/cm1", "", "").Code)

	for _, want := range []struct {
		typ string
		rv  any
	}{{"ADDED", get(created, "metadata", "resourceVersion")}, {"MODIFIED", get(updated, "metadata", "resourceVersion")}, {"DELETED", nil}} {
		ev := nextEvent(t, events)
		require.Equal(t, want.typ, ev["type"], ev)
		obj := ev["object"].(map[string]any)
		assert.Equal(t, "ConfigMap", obj["kind"])
		assert.Equal(t, "v1", obj["apiVersion"])
		if want.rv != nil {
			assert.Equal(t, want.rv, get(obj, "metadata", "resourceVersion"))
		}
	}
}

func TestWatchFromZeroStartsWithSyntheticAdded(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", cmJSON("cm1", nil))
	_, events := watchStream(t, "/api/v1/watch/namespaces/"+ns+"/configmaps?resourceVersion=0")
	ev := nextEvent(t, events)
	assert.Equal(t, "ADDED", ev["type"])
	assert.Equal(t, "cm1", get(ev["object"].(map[string]any), "metadata", "name"))
}

func TestWatchListEndsInitialEventsWithBookmark(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", cmJSON("a", nil))
	do(t, "POST", path, "", cmJSON("b", nil))
	_, events := watchStream(t, path+"?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=30")
	names := map[string]bool{}
	for range 2 {
		ev := nextEvent(t, events)
		require.Equal(t, "ADDED", ev["type"])
		names[get(ev["object"].(map[string]any), "metadata", "name").(string)] = true
	}
	assert.Equal(t, map[string]bool{"a": true, "b": true}, names)
	ev := nextEvent(t, events)
	require.Equal(t, "BOOKMARK", ev["type"], ev)
	obj := ev["object"].(map[string]any)
	assert.Equal(t, "ConfigMap", obj["kind"])
	assert.Equal(t, "v1", obj["apiVersion"])
	assert.Equal(t, "true", get(obj, "metadata", "annotations", "k8s.io/initial-events-end"))
	assert.NotEmpty(t, get(obj, "metadata", "resourceVersion"))

	do(t, "POST", path, "", cmJSON("c", nil))
	ev = nextEvent(t, events)
	assert.Equal(t, "ADDED", ev["type"])
	assert.Equal(t, "c", get(ev["object"].(map[string]any), "metadata", "name"))
}

func TestSendInitialEventsWithoutNotOlderThanIsInvalid(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	for _, q := range []string{"?watch=true&sendInitialEvents=true", "?sendInitialEvents=true"} {
		resp := do(t, "GET", path+q, "", "")
		require.Equal(t, http.StatusUnprocessableEntity, resp.Code, q)
		obj := resp.Obj(t)
		assert.Equal(t, "Invalid", obj["reason"])
		assert.Contains(t, obj["message"], `ListOptions.meta.k8s.io "" is invalid`)
	}
}

func TestWatchTimeoutSecondsEndsStreamCleanly(t *testing.T) {
	ns := newNamespace(t)
	start := time.Now()
	resp, events := watchStream(t, "/api/v1/namespaces/"+ns+"/configmaps?watch=1&timeoutSeconds=1")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	select {
	case _, ok := <-events:
		assert.False(t, ok, "no events expected in an empty namespace")
	case <-time.After(20 * time.Second):
		t.Fatal("watch did not end")
	}
	assert.GreaterOrEqual(t, time.Since(start), time.Second)
}

func TestWatchOneObjectByNameURL(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	do(t, "POST", path, "", cmJSON("other", nil))
	do(t, "POST", path, "", cmJSON("mine", nil))
	_, events := watchStream(t, "/api/v1/watch/namespaces/"+ns+"/configmaps/mine")
	ev := nextEvent(t, events)
	assert.Equal(t, "mine", get(ev["object"].(map[string]any), "metadata", "name"))
}

func TestWatchersOfOneResourceGetTheSameBytes(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	rv := get(do(t, "GET", path, "", "").Obj(t), "metadata", "resourceVersion").(string)
	var lines []<-chan []byte
	for range 2 {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+path+"?watch=true&resourceVersion="+rv, nil)
		require.NoError(t, err)
		resp, err := srv.HTTPClient().Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		ch := make(chan []byte, 1)
		go func() {
			sc := bufio.NewScanner(resp.Body)
			if sc.Scan() {
				ch <- append([]byte(nil), sc.Bytes()...)
			}
			close(ch)
		}()
		lines = append(lines, ch)
	}
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON("cm1", map[string]string{"a": "<b>"})).Code)
	first, second := <-lines[0], <-lines[1]
	require.NotEmpty(t, first)
	require.Equal(t, string(first), string(second))
	var ev struct {
		Type   string        `json:"type"`
		Object api.ConfigMap `json:"object"`
	}
	require.NoError(t, json.Unmarshal(first, &ev))
	require.Equal(t, "ADDED", ev.Type)
	require.Equal(t, "ConfigMap", ev.Object.Kind)
	require.Equal(t, "v1", ev.Object.APIVersion)
	require.Equal(t, "<b>", ev.Object.Data["a"])
}
