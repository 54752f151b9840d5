package watchcache

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

func TestWatchEventForTurnsSelectorMovesIntoAddedAndDeleted(t *testing.T) {
	info, _ := api.Builtin().ForResource("", "configmaps")
	sel, err := api.ParseSelector("app=web")
	require.NoError(t, err)
	f := newFilter(info.KeyPrefix()+"ns/", store.SelectionPredicate{Label: sel})
	w := newWatchCache(info, 10)
	w.replace(nil, 1)

	withRV := func(o *api.ConfigMap, rv uint64) *api.ConfigMap { o.ResourceVersion = rvString(rv); return o }
	steps := []struct {
		typ    api.EventType
		obj    *api.ConfigMap
		want   api.EventType // "" = not seen
		wantRV string
	}{
		{api.Added, withRV(configMap("ns", "a", map[string]string{"app": "db"}), 2), "", ""},
		{api.Modified, withRV(configMap("ns", "a", map[string]string{"app": "web"}), 3), api.Added, "3"},
		{api.Modified, withRV(configMap("ns", "a", map[string]string{"app": "web", "x": "y"}), 4), api.Modified, "4"},
		{api.Modified, withRV(configMap("ns", "a", map[string]string{"app": "db"}), 5), api.Deleted, "5"},
		{api.Deleted, withRV(configMap("ns", "a", map[string]string{"app": "db"}), 6), "", ""},
		{api.Added, withRV(configMap("other", "b", map[string]string{"app": "web"}), 7), "", ""},
	}
	for i, s := range steps {
		ev := w.processEvent(s.typ, s.obj, uint64(i+2), time.Now())
		got, ok := watchEventFor(ev, f)
		if s.want == "" {
			require.False(t, ok, "step %d", i)
			continue
		}
		require.True(t, ok, "step %d", i)
		require.Equal(t, s.want, got.Type, "step %d", i)
		require.Equal(t, s.wantRV, got.Object.GetObjectMeta().ResourceVersion, "step %d", i)
	}
}

func TestDeletedOnLeavingSelectorCarriesOldStateAtNewRV(t *testing.T) {
	info, _ := api.Builtin().ForResource("", "configmaps")
	sel, err := api.ParseSelector("app=web")
	require.NoError(t, err)
	f := newFilter(info.KeyPrefix(), store.SelectionPredicate{Label: sel})
	w := newWatchCache(info, 10)
	old := configMap("ns", "a", map[string]string{"app": "web"})
	old.ResourceVersion = "2"
	w.replace([]api.Object{old}, 2)
	cur := configMap("ns", "a", map[string]string{"app": "db"})
	cur.ResourceVersion = "3"
	got, ok := watchEventFor(w.processEvent(api.Modified, cur, 3, time.Now()), f)
	require.True(t, ok)
	require.Equal(t, api.Deleted, got.Type)
	require.Equal(t, "web", got.Object.GetObjectMeta().Labels["app"], "the state the watcher last knew")
	require.Equal(t, "3", got.Object.GetObjectMeta().ResourceVersion)
	require.Equal(t, "2", old.ResourceVersion, "the cached object itself is not changed")
}
