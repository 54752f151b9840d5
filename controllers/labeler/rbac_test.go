package labeler

import (
	"context"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
	"kubeloop/informers"
)

// forbiddenCounter counts the 403 answers a component gets, and its writes.
type forbiddenCounter struct {
	base      http.RoundTripper
	forbidden atomic.Int64
	writes    atomic.Int64
}

func (f *forbiddenCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodGet {
		f.writes.Add(1)
	}
	resp, err := f.base.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusForbidden {
		f.forbidden.Add(1)
	}
	return resp, err
}

// The labeler under the cluster's default authorizer (Node,RBAC, as
// kubeadm's), as its own user (a client certificate from the cluster's
// CA): without a role it is refused (403 on its list, no writes,
// nothing labelled, and it keeps running); with the tutorial's ClusterRole
// — get, list, watch and update on configmaps, and nothing else — it
// labels, and still may not do anything more.
func TestLabelerNeedsExactlyTheTutorialsRBAC(t *testing.T) {
	rbacCluster, err := cluster.Start(context.Background(), cluster.Options{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	t.Cleanup(rbacCluster.Stop)
	ctx := clustertest.Context(t)
	ns := clustertest.Namespace(t, rbacCluster)
	admin := client.For[*api.ConfigMap](rbacCluster.Client).Namespace(ns)
	_, err = admin.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "before"}}, client.CreateOptions{})
	require.NoError(t, err)

	const who = "tutorial-labeler"
	cfg, err := rbacCluster.ConfigFor(who)
	require.NoError(t, err)
	base, err := client.HTTPClientFor(cfg)
	require.NoError(t, err)
	counter := &forbiddenCounter{base: base.Transport}
	cfg.Transport = counter
	c, err := client.NewForConfig(cfg)
	require.NoError(t, err)
	factory := informers.NewClientInformerFactory(c, 0, nil)
	ctrl := NewController(c, informers.For[*api.ConfigMap](factory), Options{Namespaces: []string{ns}})
	t.Cleanup(factory.Shutdown)
	clustertest.Go(t, func(ctx context.Context) {
		factory.Start(ctx)
		ctrl.Run(ctx, 1)
	})

	require.Eventually(t, func() bool { return counter.forbidden.Load() >= 2 }, wait, 10*time.Millisecond,
		"the list is refused, and retried")
	_, err = client.For[*api.ConfigMap](c).List(ctx, client.ListOptions{})
	require.Error(t, err)
	assert.Equal(t, `configmaps is forbidden: User "tutorial-labeler" cannot list resource "configmaps" in API group "" at the cluster scope`, err.Error())
	assert.Zero(t, counter.writes.Load(), "nothing written without permission")
	cm, err := admin.Get(ctx, "before", client.GetOptions{})
	require.NoError(t, err)
	assert.NotContains(t, cm.Labels, LabelKey)

	// The tutorial's RBAC: a ClusterRole, because the labeler's informer
	// lists and watches configmaps in every namespace (Options.Namespaces
	// filters what it reconciles, not what it reads).
	_, err = client.For[*api.ClusterRole](rbacCluster.Client).Create(ctx, &api.ClusterRole{
		ObjectMeta: api.ObjectMeta{Name: who},
		Rules:      []api.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "list", "watch", "update"}}},
	}, client.CreateOptions{})
	require.NoError(t, err)
	_, err = client.For[*api.ClusterRoleBinding](rbacCluster.Client).Create(ctx, &api.ClusterRoleBinding{
		ObjectMeta: api.ObjectMeta{Name: who},
		RoleRef:    api.RoleRef{APIGroup: api.RBACGroupName, Kind: "ClusterRole", Name: who},
		Subjects:   []api.Subject{{Kind: api.UserKind, APIGroup: api.RBACGroupName, Name: who}},
	}, client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		cm, err := admin.Get(ctx, "before", client.GetOptions{})
		return err == nil && cm.Labels[LabelKey] == LabelValue
	}, 3*wait, 10*time.Millisecond, "with the role the labeler labels (after its list backoff)")

	mine := client.For[*api.ConfigMap](c).Namespace(ns)
	_, err = mine.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "x"}}, client.CreateOptions{})
	assert.True(t, api.IsForbidden(err), "create: %v", err)
	assert.True(t, api.IsForbidden(mine.Delete(ctx, "before", api.DeleteOptions{})), "delete")
	_, err = client.For[*api.Secret](c).Namespace(ns).List(ctx, client.ListOptions{})
	assert.True(t, api.IsForbidden(err), "secrets: %v", err)
}
