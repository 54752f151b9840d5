package apiserver_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func eventJSON(ns, name string) string {
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"Event","metadata":{"name":%q},`+
		`"involvedObject":{"kind":"Pod","name":"p","namespace":%q},"reason":"Started","message":"m","type":"Normal"}`, name, ns)
}

// Events have no watch cache, as in Kubernetes (DefaultWatchCacheSizes):
// they are read and watched from etcd, with the same answers.
func TestEventsAreServedWithoutAWatchCache(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/events"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", eventJSON(ns, "first")).Code)
	list := do(t, "GET", path, "", "").Obj(t)
	require.Len(t, get(list, "items"), 1)
	rv := get(list, "metadata", "resourceVersion").(string)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", eventJSON(ns, "second")).Code)

	w := do(t, "GET", path+"?watch=true&timeoutSeconds=1&resourceVersion="+rv, "", "")
	require.Equal(t, http.StatusOK, w.Code)
	assert.Contains(t, w.Body, `"type":"ADDED"`)
	assert.Contains(t, w.Body, `"name":"second"`, "the watch from the list's version sees the later event")
	assert.NotContains(t, w.Body, `"name":"first"`)

	metrics := do(t, "GET", "/metrics", "", "").Body
	assert.Contains(t, metrics, `kubeloop_watchcache_resource_version{resource="configmaps"}`, "other kinds are cached")
	assert.NotContains(t, metrics, `kubeloop_watchcache_resource_version{resource="events"}`, "events are not")
}
