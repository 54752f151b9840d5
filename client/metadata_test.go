package client_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

func TestMetadataClientListsAndDeletesAnyResourceByName(t *testing.T) {
	c, ns := startServer(t)
	cms := client.For[*api.ConfigMap](c).Namespace(ns)
	for _, name := range []string{"a", "b", "c"} {
		_, err := cms.Create(ctx(t), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"n": name}},
			Data: map[string]string{"k": "v"}}, client.CreateOptions{})
		require.NoError(t, err)
	}
	md := c.Metadata(client.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace(ns)
	list, err := md.List(ctx(t), client.ListOptions{Limit: 2})
	require.NoError(t, err)
	require.Len(t, list.Items, 3, "every page is read")
	assert.Equal(t, "a", list.Items[0].Name)
	assert.Equal(t, map[string]string{"n": "a"}, list.Items[0].Labels)
	assert.NotEmpty(t, list.ResourceVersion)

	require.NoError(t, md.Delete(ctx(t), "a", api.DeleteOptions{}))
	require.NoError(t, md.DeleteCollection(ctx(t), api.DeleteOptions{}, client.ListOptions{LabelSelector: "n=b"}))
	list, err = md.List(ctx(t), client.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	assert.Equal(t, "c", list.Items[0].Name)

	rs := c.Metadata(client.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}).Namespace(ns)
	_, err = client.For[*api.ReplicaSet](c).Namespace(ns).Create(ctx(t), replicaSet("web", 0), client.CreateOptions{})
	require.NoError(t, err)
	list, err = rs.List(ctx(t), client.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list.Items, 1, "a named group works the same")
	err = c.Metadata(client.GroupVersionResource{Version: "v1", Resource: "nothings"}).Namespace(ns).Delete(ctx(t), "x", api.DeleteOptions{})
	assert.True(t, api.IsNotFound(err), "an unknown resource is 404: %v", err)
}

func TestPreferredNamespacedResourcesLeaveOutClusterScopedAndSubresources(t *testing.T) {
	c, _ := startServer(t)
	lists, err := c.ServerPreferredNamespacedResources(ctx(t))
	require.NoError(t, err)
	found := map[string]bool{}
	for _, l := range lists {
		for _, r := range l.Resources {
			found[l.GroupVersion+"/"+r.Name] = true
		}
	}
	for _, want := range []string{"v1/pods", "v1/configmaps", "v1/events", "apps/v1/replicasets", "coordination.k8s.io/v1/leases"} {
		assert.True(t, found[want], want)
	}
	for _, not := range []string{"v1/nodes", "v1/namespaces", "v1/pods/status", "v1/pods/binding", "apps/v1/replicasets/scale"} {
		assert.False(t, found[not], not)
	}
}

func TestPreferredNamespacedResourcesReportWhichGroupsFailed(t *testing.T) {
	c, _ := startServer(t)
	// A proxy in front of the real server that fails one group version,
	// as an unavailable aggregated API would.
	target, err := url.Parse(c.Host())
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/apis/coordination.k8s.io/v1" {
			http.Error(w, "the group is down", http.StatusServiceUnavailable)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	broken, err := client.NewForConfig(&client.Config{Host: front.URL, Timeout: 30 * time.Second})
	require.NoError(t, err)

	lists, err := broken.ServerPreferredNamespacedResources(ctx(t))
	var failed *client.ErrGroupDiscoveryFailed
	require.ErrorAs(t, err, &failed)
	require.Len(t, failed.Groups, 1)
	require.Contains(t, failed.Groups, "coordination.k8s.io/v1")
	assert.True(t, strings.HasPrefix(err.Error(), "unable to retrieve the complete list of server APIs: coordination.k8s.io/v1: "), err.Error())
	var gvs []string
	for _, l := range lists {
		gvs = append(gvs, l.GroupVersion)
	}
	assert.Contains(t, gvs, "v1", "what could be read is returned")
	assert.Contains(t, gvs, "apps/v1")
}

func TestFinalizeWritesTheNamespaceFinalizers(t *testing.T) {
	c, ns := startServer(t)
	nsr := client.For[*api.Namespace](c)
	got, err := nsr.Get(ctx(t), ns, client.GetOptions{})
	require.NoError(t, err)
	got.Spec.Finalizers = nil
	out, err := nsr.Finalize(ctx(t), got, client.UpdateOptions{})
	require.NoError(t, err)
	assert.Empty(t, out.Spec.Finalizers)
	_, err = nsr.Finalize(ctx(t), got, client.UpdateOptions{})
	assert.True(t, api.IsConflict(err), "the old resourceVersion is stale now: %v", err)
}
