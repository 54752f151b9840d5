package clusterroleaggregation

import (
	"context"
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

var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{}, func(c *cluster.Cluster) { testCluster = c })
}

func startController(t *testing.T) {
	t.Helper()
	cl, err := testCluster.NewClient("aggregation-test")
	require.NoError(t, err)
	factory := informers.NewClientInformerFactory(cl, 0, nil)
	ctrl := NewController(cl, informers.For[*api.ClusterRole](factory), Options{})
	t.Cleanup(factory.Shutdown)
	clustertest.Go(t, func(ctx context.Context) {
		factory.Start(ctx)
		ctrl.Run(ctx, 1)
	})
}

func rule(verb, resource string) api.PolicyRule {
	return api.PolicyRule{Verbs: []string{verb}, APIGroups: []string{""}, Resources: []string{resource}}
}

// The aggregated role holds the union of the selected roles' rules, in
// name order, each once, and follows their changes and deletions.
func TestAggregatedRoleFollowsTheRolesItSelects(t *testing.T) {
	startController(t)
	ctx := clustertest.Context(t)
	roles := client.For[*api.ClusterRole](testCluster.Client)
	create := func(r *api.ClusterRole) {
		_, err := roles.Create(ctx, r, client.CreateOptions{})
		require.NoError(t, err)
	}
	create(&api.ClusterRole{ObjectMeta: api.ObjectMeta{Name: "agg-t1"},
		AggregationRule: &api.AggregationRule{ClusterRoleSelectors: []api.LabelSelector{{MatchLabels: map[string]string{"agg": "t1"}}}}})
	create(&api.ClusterRole{ObjectMeta: api.ObjectMeta{Name: "agg-t1-b", Labels: map[string]string{"agg": "t1"}},
		Rules: []api.PolicyRule{rule("get", "pods"), rule("list", "pods")}})
	create(&api.ClusterRole{ObjectMeta: api.ObjectMeta{Name: "agg-t1-a", Labels: map[string]string{"agg": "t1"}},
		Rules: []api.PolicyRule{rule("get", "pods"), rule("get", "secrets")}})
	create(&api.ClusterRole{ObjectMeta: api.ObjectMeta{Name: "agg-t1-other"}, Rules: []api.PolicyRule{rule("delete", "nodes")}})

	rulesOf := func() []api.PolicyRule {
		r, err := roles.Get(ctx, "agg-t1", client.GetOptions{})
		require.NoError(t, err)
		return r.Rules
	}
	want := []api.PolicyRule{rule("get", "pods"), rule("get", "secrets"), rule("list", "pods")}
	require.Eventually(t, func() bool { return api.SemanticEqual(&want, ptr(rulesOf())) }, 30*time.Second, 20*time.Millisecond)

	require.NoError(t, roles.Delete(ctx, "agg-t1-a", api.DeleteOptions{}))
	want = []api.PolicyRule{rule("get", "pods"), rule("list", "pods")}
	require.Eventually(t, func() bool { return api.SemanticEqual(&want, ptr(rulesOf())) }, 30*time.Second, 20*time.Millisecond)

	// A hand edit of an aggregated role is undone.
	r, err := roles.Get(ctx, "agg-t1", client.GetOptions{})
	require.NoError(t, err)
	r.Rules = append(r.Rules, rule("*", "*"))
	_, err = roles.Update(ctx, r, client.UpdateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return api.SemanticEqual(&want, ptr(rulesOf())) }, 30*time.Second, 20*time.Millisecond)
	assert.NotContains(t, rulesOf(), rule("delete", "nodes"), "an unselected role adds nothing")
}

func ptr[T any](v T) *T { return &v }
