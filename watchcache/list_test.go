package watchcache

import (
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

func TestConsistentListSeesWriteThatReturnedJustBefore(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, s := startCacher(t, info, Options{})
	ctx := ctxFor(t)
	for i := 0; i < 30; i++ {
		// Written behind the cache's back, so only a consistent read can
		// be sure to see it.
		obj, err := s.Create(ctx, info.Key("ns", "o"+rvString(uint64(i))), configMap("ns", "o"+rvString(uint64(i)), nil))
		require.NoError(t, err)
		list, err := c.List(ctx, info.KeyPrefix(), store.ListOptions{ResourceVersion: ""})
		require.NoError(t, err)
		require.Len(t, list.Items, i+1)
		require.GreaterOrEqual(t, list.ResourceVersion, rvOf(t, obj))
	}
}

func TestListNotOlderThanRVSeesThatRevision(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, s := startCacher(t, info, Options{})
	ctx := ctxFor(t)
	obj, err := s.Create(ctx, info.Key("ns", "a"), configMap("ns", "a", nil))
	require.NoError(t, err)
	list, err := c.List(ctx, info.KeyPrefix(), store.ListOptions{ResourceVersion: obj.GetObjectMeta().ResourceVersion})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	require.GreaterOrEqual(t, list.ResourceVersion, rvOf(t, obj))
}

func TestListAtZeroIgnoresLimitAndIsSortedByKey(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{})
	var last api.Object
	for _, n := range []string{"c", "a", "e", "b", "d"} {
		last = create(t, c, info, configMap("ns", n, nil))
	}
	waitCacheAt(t, c, rvOf(t, last))
	list, err := c.List(ctxFor(t), info.KeyPrefix(), store.ListOptions{
		ResourceVersion: "0", Predicate: store.SelectionPredicate{Limit: 2},
	})
	require.NoError(t, err)
	var names []string
	for _, o := range list.Items {
		names = append(names, o.GetObjectMeta().Name)
	}
	require.Equal(t, []string{"a", "b", "c", "d", "e"}, names)
	require.Empty(t, list.Continue)
	require.Equal(t, rvOf(t, last), list.ResourceVersion)

	// With a limit and any other RV the store pages it.
	paged, err := c.List(ctxFor(t), info.KeyPrefix(), store.ListOptions{Predicate: store.SelectionPredicate{Limit: 2}})
	require.NoError(t, err)
	require.Len(t, paged.Items, 2)
	require.NotEmpty(t, paged.Continue)
}

func TestListFiltersByNamespaceAndLabels(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{})
	create(t, c, info, configMap("ns", "a", map[string]string{"app": "web"}))
	create(t, c, info, configMap("ns", "b", map[string]string{"app": "db"}))
	last := create(t, c, info, configMap("other", "c", map[string]string{"app": "web"}))
	waitCacheAt(t, c, rvOf(t, last))
	sel, err := api.ParseSelector("app=web")
	require.NoError(t, err)
	list, err := c.List(ctxFor(t), info.KeyPrefix()+"ns/", store.ListOptions{
		ResourceVersion: "0", Predicate: store.SelectionPredicate{Label: sel},
	})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	require.Equal(t, "a", list.Items[0].GetObjectMeta().Name)
}

func TestGetAtZeroReadsMemory(t *testing.T) {
	info := testInfo(t, "configmaps")
	c, _ := startCacher(t, info, Options{})
	o := create(t, c, info, configMap("ns", "a", nil))
	waitCacheAt(t, c, rvOf(t, o))
	got, err := c.Get(ctxFor(t), info.Key("ns", "a"), store.GetOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	require.Equal(t, o.GetObjectMeta().ResourceVersion, got.GetObjectMeta().ResourceVersion)
	_, err = c.Get(ctxFor(t), info.Key("ns", "missing"), store.GetOptions{ResourceVersion: "0"})
	require.True(t, api.IsNotFound(err), "%v", err)
	require.Contains(t, err.Error(), `"missing" not found`)
}
