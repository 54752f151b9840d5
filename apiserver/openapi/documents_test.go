package openapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func builtinDocuments(t *testing.T) *documents {
	t.Helper()
	d, err := buildDocuments(api.Builtin(), "v1.37.2")
	require.NoError(t, err)
	return d
}

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

func object(t *testing.T, v any, keys ...string) map[string]any {
	t.Helper()
	for _, k := range keys {
		m, ok := v.(map[string]any)
		require.True(t, ok, "%s: not an object", k)
		v = m[k]
	}
	m, ok := v.(map[string]any)
	require.True(t, ok, "%v: not an object", keys)
	return m
}

// refs collects every "$ref" in a decoded document.
func refs(v any, into map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if s, ok := val.(string); ok && k == "$ref" {
				into[s] = true
			}
			refs(val, into)
		}
	case []any:
		for _, val := range x {
			refs(val, into)
		}
	}
}

func TestEveryServedKindHasASchemaWithItsGVKInItsGroupVersionDocument(t *testing.T) {
	d := builtinDocuments(t)
	for _, info := range api.Builtin().All() {
		gv := groupVersionPath(info)
		require.Contains(t, d.v3, gv)
		schemas := object(t, decode(t, d.v3[gv]), "components", "schemas")
		found := false
		for _, s := range schemas {
			gvks, _ := s.(map[string]any)["x-kubernetes-group-version-kind"].([]any)
			for _, gvk := range gvks {
				if assert.ObjectsAreEqual(map[string]any{"group": info.Group, "kind": info.Kind, "version": info.Version}, gvk) {
					found = true
				}
			}
		}
		assert.True(t, found, "%s: no schema with GVK %s/%s", gv, info.GroupVersion(), info.Kind)
	}
}

func TestEveryPatchOperationDeclaresFieldValidation(t *testing.T) {
	d := builtinDocuments(t)
	v2 := object(t, decode(t, d.v2JSON), "paths")
	for _, info := range api.Builtin().All() {
		path := "/" + groupVersionPath(info) + "/"
		if info.Namespaced {
			path += "namespaces/{namespace}/"
		}
		path += info.Resource + "/{name}"
		for version, doc := range map[string]map[string]any{"v3": object(t, decode(t, d.v3[groupVersionPath(info)]), "paths"), "v2": v2} {
			patch := object(t, doc, path, "patch")
			assert.Equal(t, map[string]any{"group": info.Group, "kind": info.Kind, "version": info.Version}, patch["x-kubernetes-group-version-kind"], version)
			var names []string
			for _, p := range patch["parameters"].([]any) {
				names = append(names, p.(map[string]any)["name"].(string))
			}
			assert.Contains(t, names, "fieldValidation", "%s %s", version, path)
		}
	}
}

func TestEveryReferenceResolvesInsideItsDocument(t *testing.T) {
	d := builtinDocuments(t)
	check := func(name string, doc map[string]any, prefix string, defs map[string]any) {
		seen := map[string]bool{}
		refs(doc, seen)
		require.NotEmpty(t, seen)
		for ref := range seen {
			target, ok := strings.CutPrefix(ref, prefix)
			require.True(t, ok, "%s: %s", name, ref)
			assert.Contains(t, defs, target, "%s: %s", name, ref)
		}
	}
	v2 := decode(t, d.v2JSON)
	check("v2", v2, "#/definitions/", object(t, v2, "definitions"))
	for gv, b := range d.v3 {
		doc := decode(t, b)
		check(gv, doc, "#/components/schemas/", object(t, doc, "components", "schemas"))
	}
}

func TestEachGroupVersionDocumentHoldsOnlyItsOwnKinds(t *testing.T) {
	d := builtinDocuments(t)
	core := object(t, decode(t, d.v3["api/v1"]), "components", "schemas")
	assert.Contains(t, core, "io.k8s.api.core.v1.Pod")
	assert.Contains(t, core, "io.k8s.api.core.v1.Binding")
	assert.NotContains(t, core, "io.k8s.api.apps.v1.ReplicaSet")
	apps := object(t, decode(t, d.v3["apis/apps/v1"]), "components", "schemas")
	assert.Contains(t, apps, "io.k8s.api.autoscaling.v1.Scale", "the scale subresource's body")
	assert.Contains(t, apps, "io.k8s.api.core.v1.PodSpec", "reached through the template")
	assert.NotContains(t, apps, "io.k8s.api.core.v1.Node")

	var index struct {
		Paths map[string]struct {
			URL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(d.v3Index, &index))
	assert.Len(t, index.Paths, len(d.v3))
	assert.Regexp(t, `^/openapi/v3/apis/apps/v1\?hash=[0-9A-F]{128}$`, index.Paths["apis/apps/v1"].URL)
}

func TestOperationsAreNamedAsKubernetesNamesThem(t *testing.T) {
	d := builtinDocuments(t)
	paths := object(t, decode(t, d.v2JSON), "paths")
	for path, want := range map[string]map[string]string{
		"/api/v1/namespaces/{namespace}/pods":                {"get": "listCoreV1NamespacedPod", "post": "createCoreV1NamespacedPod", "delete": "deleteCoreV1CollectionNamespacedPod"},
		"/api/v1/namespaces/{namespace}/pods/{name}":         {"get": "readCoreV1NamespacedPod", "put": "replaceCoreV1NamespacedPod", "patch": "patchCoreV1NamespacedPod", "delete": "deleteCoreV1NamespacedPod"},
		"/api/v1/namespaces/{namespace}/pods/{name}/status":  {"patch": "patchCoreV1NamespacedPodStatus"},
		"/api/v1/namespaces/{namespace}/pods/{name}/binding": {"post": "createCoreV1NamespacedPodBinding"},
		"/api/v1/pods":         {"get": "listCoreV1PodForAllNamespaces"},
		"/api/v1/nodes/{name}": {"get": "readCoreV1Node"},
		"/apis/apps/v1/namespaces/{namespace}/replicasets/{name}/scale": {"put": "replaceAppsV1NamespacedReplicaSetScale"},
		"/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases":    {"get": "listCoordinationV1NamespacedLease"},
	} {
		for method, id := range want {
			assert.Equal(t, id, object(t, paths, path, method)["operationId"], "%s %s", method, path)
		}
	}
	scale := object(t, paths, "/apis/apps/v1/namespaces/{namespace}/replicasets/{name}/scale", "get")
	assert.Equal(t, map[string]any{"group": "autoscaling", "kind": "Scale", "version": "v1"}, scale["x-kubernetes-group-version-kind"])
	assert.Equal(t, []any{"apps_v1"}, scale["tags"])
}

func TestTheV2DocumentIsAlsoEncodedAsProtobuf(t *testing.T) {
	d := builtinDocuments(t)
	require.NotEmpty(t, d.v2Protobuf)
	assert.Less(t, len(d.v2Protobuf), len(d.v2JSON), "protobuf is the compact form")
}

// undocumentedPodFields are the only properties reachable from Pod that may
// go without a description, as "definition.property".
var undocumentedPodFields = map[string]bool{}

// TestEveryFieldOfPodIsDescribed walks the Pod schema of the api/v1
// document through every reference and requires a description on every
// definition and every property: what `kubectl explain` shows comes from
// the api types' comments, and none may be missing.
func TestEveryFieldOfPodIsDescribed(t *testing.T) {
	if api.Description("PodSpec", "Containers") == "" {
		t.Skip("the api types' field comments have not landed yet")
	}
	d := builtinDocuments(t)
	schemas := object(t, decode(t, d.v3["api/v1"]), "components", "schemas")
	seen := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		s := object(t, schemas, name)
		assert.NotEmpty(t, s["description"], "definition %s", name)
		props, _ := s["properties"].(map[string]any)
		for prop, p := range props {
			if !undocumentedPodFields[name+"."+prop] {
				assert.NotEmpty(t, p.(map[string]any)["description"], "%s.%s", name, prop)
			}
			found := map[string]bool{}
			refs(p, found)
			for ref := range found {
				visit(strings.TrimPrefix(ref, "#/components/schemas/"))
			}
		}
	}
	visit("io.k8s.api.core.v1.Pod")
	assert.Greater(t, len(seen), 100, "the walk reached the whole pod")
}
