package informer

import (
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/reflector"
)

func TestInformerForKeepsTheFactorysIndexers(t *testing.T) {
	byData := func(obj any) ([]string, error) {
		return []string{obj.(*api.ConfigMap).Data["k"]}, nil
	}
	lw := newMemLW()
	f := NewSharedInformerFactoryWithOptions(func(*api.ResourceInfo) reflector.ListerWatcher { return lw },
		Options{Indexers: Indexers{"byData": byData}})
	info, ok := api.ForType[*api.ConfigMap](api.Builtin())
	require.True(t, ok)

	indexers := f.InformerFor(info).GetIndexer().GetIndexers()
	require.Contains(t, indexers, "byData", "the factory's own indexer")
	require.Contains(t, indexers, OwnerUIDIndex, "the owner index every factory informer has")
	require.Contains(t, indexers, NamespaceIndex)
}
