package client_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/informers"
	"kubeloop/listers"
)

// A custom resource through kubeloop's client: DiscoverResource finds the
// kind, then the dynamic client, an informer and its lister work on
// *api.Unstructured objects as on any kind.
func TestCustomResourcesThroughDiscoveryDynamicInformersAndListers(t *testing.T) {
	c, ns := startServer(t)
	crd := &api.CustomResourceDefinition{Spec: api.CustomResourceDefinitionSpec{
		Group: "client.example.com", Scope: api.NamespaceScoped,
		Names: api.CustomResourceDefinitionNames{Plural: "knobs", Singular: "knob", Kind: "Knob", ShortNames: []string{"kn"}, Categories: []string{"controls"}},
		Versions: []api.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
			Subresources: &api.CustomResourceSubresources{Status: &api.CustomResourceSubresourceStatus{},
				Scale: &api.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas"}},
			Schema: &api.CustomResourceValidation{OpenAPIV3Schema: &api.JSONSchemaProps{Type: "object", XPreserveUnknownFields: ptrTo(true)}}}},
	}}
	crd.Name = "knobs.client.example.com"
	_, err := client.For[*api.CustomResourceDefinition](c).Create(ctx(t), crd, client.CreateOptions{})
	require.NoError(t, err)

	var info *api.ResourceInfo
	require.Eventually(t, func() bool {
		info, err = c.DiscoverResource(ctx(t), "client.example.com", "v1", "knobs")
		return err == nil
	}, 10*time.Second, 10*time.Millisecond, "never discovered: %v", err)
	assert.Equal(t, "Knob", info.Kind)
	assert.True(t, info.Namespaced)
	assert.Equal(t, "knob", info.Singular)
	assert.Equal(t, []string{"kn"}, info.ShortNames)
	assert.Equal(t, []string{"controls"}, info.Categories)
	assert.True(t, info.HasStatus)
	assert.Equal(t, []string{"scale"}, info.Subresources)
	_, err = c.DiscoverResource(ctx(t), "client.example.com", "v1", "dials")
	assert.True(t, api.IsNotFound(err), "%v", err)

	factory := informers.NewClientInformerFactory(c, 0, nil)
	inf := factory.InformerFor(info)
	lister := listers.NewLister[*api.Unstructured](inf.GetIndexer())
	factory.Start(ctx(t))
	factory.WaitForCacheSync(ctx(t))

	knobs := c.Dynamic(info).Namespace(ns)
	k := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "client.example.com/v1", Kind: "Knob"},
		Content: map[string]any{"spec": map[string]any{"replicas": int64(1)}}}
	k.Name, k.Labels = "k", map[string]string{"app": "x"}
	created, err := knobs.Create(ctx(t), k, client.CreateOptions{})
	require.NoError(t, err)
	got := created.(*api.Unstructured)
	api.SetNestedField(got.Content, int64(2), "spec", "replicas")
	updated, err := knobs.Update(ctx(t), got, client.UpdateOptions{})
	require.NoError(t, err)
	u := updated.(*api.Unstructured)
	api.SetNestedField(u.Content, int64(2), "status", "replicas")
	_, err = knobs.UpdateStatus(ctx(t), u, client.UpdateOptions{})
	require.NoError(t, err)

	require.Eventually(t, func() bool {
		o, err := lister.Namespace(ns).Get("k")
		if err != nil {
			return false
		}
		r, _ := api.NestedField(o.Content, "status", "replicas")
		return r == int64(2)
	}, 10*time.Second, 10*time.Millisecond, "the lister never has the status")
	sel, err := api.ParseSelector("app=x")
	require.NoError(t, err)
	assert.Len(t, lister.Namespace(ns).List(sel), 1)

	list, err := knobs.List(ctx(t), client.ListOptions{LabelSelector: "app=x"})
	require.NoError(t, err)
	require.Len(t, list.GetItems(), 1)
	require.NoError(t, knobs.Delete(ctx(t), "k", api.DeleteOptions{}))
	require.Eventually(t, func() bool {
		_, err := lister.Namespace(ns).Get("k")
		return api.IsNotFound(err)
	}, 10*time.Second, 10*time.Millisecond, "the lister still has the deleted Knob")
}

func ptrTo[T any](v T) *T { return &v }
