package discovery_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiscoveryLegacyShapes(t *testing.T) {
	resp := do(t, "GET", "/api", "", "")
	require.Equal(t, http.StatusOK, resp.Code)
	obj := resp.Obj(t)
	assert.Equal(t, "APIVersions", obj["kind"])
	assert.Equal(t, []any{"v1"}, obj["versions"])
	assert.Equal(t, "0.0.0.0/0", obj["serverAddressByClientCIDRs"].([]any)[0].(map[string]any)["clientCIDR"])

	groups := do(t, "GET", "/apis", "", "").Obj(t)
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
	core := do(t, "GET", "/api/v1", "", "").Obj(t)
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

	apps := do(t, "GET", "/apis/apps/v1", "", "").Obj(t)
	rs := findResource(t, apps, "replicasets")
	assert.Equal(t, []any{"rs"}, rs["shortNames"])
	scale := findResource(t, apps, "replicasets/scale")
	assert.Equal(t, "autoscaling", scale["group"])
	assert.Equal(t, "v1", scale["version"])
	assert.Equal(t, "Scale", scale["kind"])
	findResource(t, apps, "replicasets/status")
}

func TestAggregatedDiscoveryOnlyWhenAsked(t *testing.T) {
	resp := doAccept(t, "/apis", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json")
	require.Equal(t, http.StatusOK, resp.Code)
	assert.Equal(t, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", resp.Header.Get("Content-Type"))
	assert.Contains(t, resp.Body, `"resource":"replicasets"`)
	assert.Contains(t, resp.Body, `"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"}`)
	legacy := doAccept(t, "/apis", "application/json")
	assert.Equal(t, "APIGroupList", legacy.Obj(t)["kind"])
}
