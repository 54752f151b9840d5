package greeter_test

import (
	"context"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/apiserver/apiservertest"
	"kubeloop/client"
	"kubeloop/examples/greeter"
	"kubeloop/informers"
)

var srv *apiservertest.Server

func TestMain(m *testing.M) {
	apiservertest.Main(m, func(s *apiservertest.Server) { srv = s })
}

func TestGreeterPublishesEachGreetingAsAConfigMap(t *testing.T) {
	crd, err := os.ReadFile("greeting-crd.yaml")
	require.NoError(t, err)
	body, err := yaml.YAMLToJSON(crd)
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "", string(body)).Code)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// The admin's HTTPS client: the test server's CA and client certificate.
	c, err := client.NewForConfig(&client.Config{Host: srv.URL, Transport: srv.HTTPClient().Transport})
	require.NoError(t, err)
	var info *api.ResourceInfo
	require.Eventually(t, func() bool {
		info, err = c.DiscoverResource(ctx, "example.kubeloop.dev", "v1", "greetings")
		return err == nil
	}, 10*time.Second, 20*time.Millisecond, "the CRD is served")
	factory := informers.NewClientInformerFactory(c, 0, nil)
	ctrl := greeter.NewController(c, info, factory)
	factory.Start(ctx)
	go ctrl.Run(ctx)

	ns := srv.NewNamespace(t)
	g := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.kubeloop.dev/v1", Kind: "Greeting"},
		Content: map[string]any{"spec": map[string]any{"message": "hello"}}}
	g.Name = "hi"
	created, err := c.Dynamic(info).Namespace(ns).Create(ctx, g, client.CreateOptions{})
	require.NoError(t, err)
	cms := client.For[*api.ConfigMap](c).Namespace(ns)
	waitMessage := func(want string) {
		t.Helper()
		require.Eventually(t, func() bool {
			cm, err := cms.Get(ctx, "hi", client.GetOptions{})
			return err == nil && cm.Data["message"] == want
		}, 10*time.Second, 20*time.Millisecond, "ConfigMap never says %q", want)
	}
	waitMessage("hello")
	cm, err := cms.Get(ctx, "hi", client.GetOptions{})
	require.NoError(t, err)
	require.Len(t, cm.OwnerReferences, 1)
	assert.Equal(t, created.GetObjectMeta().UID, cm.OwnerReferences[0].UID)
	assert.Equal(t, "Greeting", cm.OwnerReferences[0].Kind)

	patch := []byte(`{"spec":{"message":"bonjour"}}`)
	_, err = c.Dynamic(info).Namespace(ns).Patch(ctx, "hi", client.MergePatchType, patch, client.PatchOptions{})
	require.NoError(t, err)
	waitMessage("bonjour")
	require.Eventually(t, func() bool {
		cur, err := c.Dynamic(info).Namespace(ns).Get(ctx, "hi", client.GetOptions{})
		if err != nil {
			return false
		}
		gen, _ := api.NestedField(cur.(*api.Unstructured).Content, "status", "observedGeneration")
		return gen == int64(2)
	}, 10*time.Second, 20*time.Millisecond, "status reports the published generation")
}
