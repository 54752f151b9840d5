package garbagecollector

import (
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

// gadgets is a namespaced CRD made for these tests.
func gadgets(t *testing.T) *api.ResourceInfo {
	t.Helper()
	crd := &api.CustomResourceDefinition{Spec: api.CustomResourceDefinitionSpec{
		Group: "gc.example.com", Scope: api.NamespaceScoped,
		Names: api.CustomResourceDefinitionNames{Plural: "gadgets", Kind: "Gadget"},
		Versions: []api.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
			Schema: &api.CustomResourceValidation{OpenAPIV3Schema: &api.JSONSchemaProps{Type: "object", XPreserveUnknownFields: ptrTo(true)}}}},
	}}
	crd.Name = "gadgets.gc.example.com"
	_, err := client.For[*api.CustomResourceDefinition](testCluster.Client).Create(bg(), crd, client.CreateOptions{})
	if err != nil && !api.IsAlreadyExists(err) {
		require.NoError(t, err)
	}
	var info *api.ResourceInfo
	require.Eventually(t, func() bool {
		info, err = testCluster.Client.DiscoverResource(bg(), "gc.example.com", "v1", "gadgets")
		return err == nil
	}, wait, poll)
	return info
}

func ptrTo[T any](v T) *T { return &v }

func TestCustomResourcesTakePartInGarbageCollectionBothWays(t *testing.T) {
	info := gadgets(t)
	ns := clustertest.Namespace(t, testCluster)
	gs := testCluster.Client.Dynamic(info).Namespace(ns)
	cms := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns)

	// A ConfigMap owned by a Gadget goes with it.
	g := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "gc.example.com/v1", Kind: "Gadget"}, Content: map[string]any{}}
	g.Name = "owner"
	owner, err := gs.Create(bg(), g, client.CreateOptions{})
	require.NoError(t, err)
	cm := &api.ConfigMap{}
	cm.Name = "dependent"
	cm.OwnerReferences = []api.OwnerReference{{APIVersion: "gc.example.com/v1", Kind: "Gadget", Name: "owner", UID: owner.GetObjectMeta().UID}}
	_, err = cms.Create(bg(), cm, client.CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, gs.Delete(bg(), "owner", api.DeleteOptions{}))
	eventuallyGone(t, cms, "dependent")

	// A Gadget owned by a ConfigMap goes with it.
	parent := &api.ConfigMap{}
	parent.Name = "parent"
	p, err := cms.Create(bg(), parent, client.CreateOptions{})
	require.NoError(t, err)
	child := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "gc.example.com/v1", Kind: "Gadget"}, Content: map[string]any{}}
	child.Name = "child"
	child.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "parent", UID: p.UID}}
	_, err = gs.Create(bg(), child, client.CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, cms.Delete(bg(), "parent", api.DeleteOptions{}))
	require.Eventually(t, func() bool {
		_, err := gs.Get(bg(), "child", client.GetOptions{})
		return api.IsNotFound(err)
	}, wait, poll, "the Gadget owned by the deleted ConfigMap is never collected")
}
