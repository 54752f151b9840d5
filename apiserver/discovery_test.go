package apiserver

import (
	"net/http"
	"strings"
	"testing"

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
