package apiserver

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiscoveryLegacyShapes(t *testing.T) {
	resp := do(t, "GET", "/api", "", "")
	require.Equal(t, http.StatusOK, resp.Code)
	obj := resp.obj(t)
	assert.Equal(t, "APIVersions", obj["kind"])
	assert.Equal(t, []any{"v1"}, obj["versions"])
	assert.Equal(t, "0.0.0.0/0", obj["serverAddressByClientCIDRs"].([]any)[0].(map[string]any)["clientCIDR"])

	groups := do(t, "GET", "/apis", "", "").obj(t)
	assert.Equal(t, "APIGroupList", groups["kind"])
	var names []string
	for _, g := range groups["groups"].([]any) {
		names = append(names, g.(map[string]any)["name"].(string))
	}
	assert.Contains(t, names, "apps")
	assert.Contains(t, names, "coordination.k8s.io")
}

func findResource(t *testing.T, list map[string]any, name string) map[string]any {
	t.Helper()
	for _, r := range list["resources"].([]any) {
		if r.(map[string]any)["name"] == name {
			return r.(map[string]any)
		}
	}
	t.Fatalf("resource %s not in discovery", name)
	return nil
}

func TestDiscoveryResourceLists(t *testing.T) {
	core := do(t, "GET", "/api/v1", "", "").obj(t)
	assert.Equal(t, "APIResourceList", core["kind"])
	assert.Equal(t, "v1", core["groupVersion"])
	pods := findResource(t, core, "pods")
	assert.Equal(t, []any{"po"}, pods["shortNames"])
	assert.Equal(t, true, pods["namespaced"])
	assert.Equal(t, "pod", pods["singularName"])
	assert.Contains(t, pods["verbs"], "watch")
	assert.Equal(t, "Binding", findResource(t, core, "pods/binding")["kind"])
	assert.Equal(t, []any{"create"}, findResource(t, core, "pods/binding")["verbs"])
	findResource(t, core, "pods/status")
	findResource(t, core, "nodes/status")
	findResource(t, core, "namespaces/status")
	assert.Equal(t, false, findResource(t, core, "nodes")["namespaced"])

	apps := do(t, "GET", "/apis/apps/v1", "", "").obj(t)
	rs := findResource(t, apps, "replicasets")
	assert.Equal(t, []any{"rs"}, rs["shortNames"])
	scale := findResource(t, apps, "replicasets/scale")
	assert.Equal(t, "autoscaling", scale["group"])
	assert.Equal(t, "v1", scale["version"])
	assert.Equal(t, "Scale", scale["kind"])
	findResource(t, apps, "replicasets/status")
}

func TestVersionHealthAndMetrics(t *testing.T) {
	v := do(t, "GET", "/version", "", "").obj(t)
	assert.Equal(t, "v1.37.0-kubeloop", v["gitVersion"])
	assert.Equal(t, "1", v["major"])
	assert.Equal(t, "37", v["minor"])
	for _, p := range []string{"/healthz", "/livez", "/readyz"} {
		resp := do(t, "GET", p, "", "")
		assert.Equal(t, http.StatusOK, resp.Code, p)
		assert.Equal(t, "ok", resp.Body)
	}
	do(t, "GET", "/api/v1/namespaces/default/configmaps", "", "")
	m := do(t, "GET", "/metrics", "", "")
	require.Equal(t, http.StatusOK, m.Code)
	assert.Contains(t, m.Body, `apiserver_request_total{code="200",resource="configmaps",subresource="",verb="list"}`)
	assert.Contains(t, m.Body, "apiserver_request_duration_seconds_bucket")
	assert.True(t, strings.Contains(m.Body, "watch_cache") || strings.Contains(m.Body, "watchcache"), "watch cache metrics are served too")
}

// inflight reads apiserver_current_inflight_requests for one kind.
func inflight(t *testing.T, kind string) float64 {
	t.Helper()
	body := do(t, "GET", "/metrics", "", "").Body
	prefix := `apiserver_current_inflight_requests{request_kind="` + kind + `"} `
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, prefix); ok {
			f, err := strconv.ParseFloat(v, 64)
			require.NoError(t, err)
			return f
		}
	}
	return 0
}

// A create whose body is still arriving is a mutating request in flight;
// once answered it no longer counts. (Tests here run one at a time, so no
// other mutating request is in flight meanwhile.)
func TestInflightRequestsAreCounted(t *testing.T) {
	ns := newNamespace(t)
	// A handler's deferred bookkeeping may finish just after its client has
	// the reply: wait for the count to settle rather than read it once.
	require.Eventually(t, func() bool { return inflight(t, "mutating") == 0 }, 20*time.Second, 10*time.Millisecond)
	pr, pw := io.Pipe()
	req, err := http.NewRequest("POST", baseURL+"/api/v1/namespaces/"+ns+"/configmaps", pr)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	done := make(chan int, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	_, err = pw.Write([]byte(`{"apiVersion":"v1","kind":"ConfigMap",`))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return inflight(t, "mutating") == 1 }, 20*time.Second, 10*time.Millisecond)

	_, err = pw.Write([]byte(`"metadata":{"name":"held"}}`))
	require.NoError(t, err)
	require.NoError(t, pw.Close())
	require.Equal(t, http.StatusCreated, <-done)
	require.Eventually(t, func() bool { return inflight(t, "mutating") == 0 }, 20*time.Second, 10*time.Millisecond)
}
