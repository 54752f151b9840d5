package namespace

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

// The controller finds custom resources through discovery like any other
// namespaced kind and empties them too, through the metadata client.
func TestDeletedNamespaceIsEmptiedOfCustomResources(t *testing.T) {
	ctx := clustertest.Context(t)
	cl := testCluster.Client
	crd := &api.CustomResourceDefinition{Spec: api.CustomResourceDefinitionSpec{
		Group: "ns.example.com", Scope: api.NamespaceScoped,
		Names: api.CustomResourceDefinitionNames{Plural: "things", Kind: "Thing"},
		Versions: []api.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
			Schema: &api.CustomResourceValidation{OpenAPIV3Schema: &api.JSONSchemaProps{Type: "object"}}}},
	}}
	crd.Name = "things.ns.example.com"
	_, err := client.For[*api.CustomResourceDefinition](cl).Create(ctx, crd, client.CreateOptions{})
	require.NoError(t, err)
	var info *api.ResourceInfo
	require.Eventually(t, func() bool {
		info, err = cl.DiscoverResource(ctx, "ns.example.com", "v1", "things")
		return err == nil
	}, waitFor, tick)

	startController(t, testCluster.URL)
	ns := clustertest.Namespace(t, testCluster)
	things := cl.Dynamic(info).Namespace(ns)
	for _, name := range []string{"a", "b"} {
		u := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "ns.example.com/v1", Kind: "Thing"}, Content: map[string]any{}}
		u.Name = name
		_, err := things.Create(ctx, u, client.CreateOptions{})
		require.NoError(t, err)
	}
	deleteNamespace(t, ns)
	waitGone(t, ns)
	left, err := things.List(ctx, client.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, left.GetItems())
}
