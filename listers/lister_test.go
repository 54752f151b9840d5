package listers

import (
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/cache"
	"kubeloop/deltafifo"
)

func TestListerFiltersByNamespaceAndSelector(t *testing.T) {
	idx := cache.NewIndexer(deltafifo.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, c := range []*api.ConfigMap{
		{ObjectMeta: api.ObjectMeta{Namespace: "a", Name: "x", Labels: map[string]string{"app": "web"}}},
		{ObjectMeta: api.ObjectMeta{Namespace: "a", Name: "y"}},
		{ObjectMeta: api.ObjectMeta{Namespace: "b", Name: "x", Labels: map[string]string{"app": "web"}}},
	} {
		require.NoError(t, idx.Add(c))
	}
	l := NewLister[*api.ConfigMap](idx)
	require.Len(t, l.List(nil), 3)
	require.Len(t, l.Namespace("a").List(nil), 2)
	got, err := l.Namespace("b").Get("x")
	require.NoError(t, err)
	require.Equal(t, "b", got.Namespace)
	_, err = l.Namespace("b").Get("nope")
	require.True(t, api.IsNotFound(err))
}
