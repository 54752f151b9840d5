package informers

import (
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/cache"
	"kubeloop/informer"
	"kubeloop/reflector"
)

func TestInformerForKeepsTheFactorysIndexers(t *testing.T) {
	byData := func(obj any) ([]string, error) {
		return []string{obj.(*api.ConfigMap).Data["k"]}, nil
	}
	// InformerFor makes the informer without listing: no ListerWatcher is called.
	f := NewSharedInformerFactoryWithOptions(func(*api.ResourceInfo) reflector.ListerWatcher { return nil },
		informer.Options{Indexers: cache.Indexers{"byData": byData}})
	info, ok := api.ForType[*api.ConfigMap](api.Builtin())
	require.True(t, ok)

	indexers := f.InformerFor(info).GetIndexer().GetIndexers()
	require.Contains(t, indexers, "byData", "the factory's own indexer")
	require.Contains(t, indexers, OwnerUIDIndex, "the owner index every factory informer has")
	require.Contains(t, indexers, cache.NamespaceIndex)
}
