package cache

import (
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func cm(ns, name, v string) *api.ConfigMap {
	return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}, Data: map[string]string{"v": v}}
}

func byValue(obj any) ([]string, error) { return []string{obj.(*api.ConfigMap).Data["v"]}, nil }

func TestWritesKeepEveryIndexInStep(t *testing.T) {
	s := NewIndexer(api.MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc, "v": byValue})
	require.NoError(t, s.Add(cm("a", "x", "1")))
	require.NoError(t, s.Add(cm("b", "y", "1")))
	require.NoError(t, s.Update(cm("a", "x", "2")))

	keys, err := s.IndexKeys("v", "1")
	require.NoError(t, err)
	require.Equal(t, []string{"b/y"}, keys, "an update moves the key out of its old value")
	keys, _ = s.IndexKeys("v", "2")
	require.Equal(t, []string{"a/x"}, keys)

	require.NoError(t, s.Delete(cm("a", "x", "")))
	got, err := s.ByIndex(NamespaceIndex, "a")
	require.NoError(t, err)
	require.Empty(t, got, "a delete removes the key from every index, whatever the deleted object says")
	require.Equal(t, []string{"b/y"}, s.ListKeys())
	_, err = s.ByIndex("nope", "a")
	require.Error(t, err)
}

func TestReplaceRebuildsIndexesAndAddIndexersIndexesWhatIsStored(t *testing.T) {
	s := NewIndexer(api.MetaNamespaceKeyFunc, Indexers{"v": byValue})
	require.NoError(t, s.Add(cm("a", "old", "1")))
	require.NoError(t, s.Replace([]any{cm("a", "x", "1"), cm("b", "y", "2")}, "10"))

	keys, _ := s.IndexKeys("v", "1")
	require.Equal(t, []string{"a/x"}, keys, "the replaced-away object is gone from the index")
	require.NoError(t, s.AddIndexers(Indexers{NamespaceIndex: MetaNamespaceIndexFunc}))
	got, err := s.ByIndex(NamespaceIndex, "b")
	require.NoError(t, err)
	require.Equal(t, []any{cm("b", "y", "2")}, got)
	require.Error(t, s.AddIndexers(Indexers{"v": byValue}), "an index name is added once")
	require.Len(t, s.GetIndexers(), 2)

	_, exists, err := s.Get(cm("a", "old", ""))
	require.NoError(t, err)
	require.False(t, exists)
}
