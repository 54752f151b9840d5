package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

// A storm of watches cancelled at once, on the in-process client an
// embedded etcd gives, must not silence the other watches of that client.
// Its watches used to share one stream, which such a storm can deadlock
// for good (etcd-io/etcd#18879): a watch cache on the same client then
// stopped following etcd while its server looked healthy
// (store/watch_streams.go).
func TestAStormOfCancelledWatchesLeavesTheOthersFollowing(t *testing.T) {
	f := newFixture(t)
	cli := etcd.NewInProcessClient()
	t.Cleanup(func() { _ = cli.Close() })
	st := store.New(cli, f.info)
	keeper, err := st.Watch(f.ctx, f.prefix()+"kept/", store.ListOptions{ResourceVersion: fmt.Sprint(f.currentRV())})
	require.NoError(t, err)
	defer keeper.Stop()

	for round := range 3 {
		ctx, cancel := context.WithCancel(f.ctx)
		watchers := make([]api.Watcher, 300)
		for i := range watchers {
			watchers[i], err = st.Watch(ctx, f.prefix()+"storm/", store.ListOptions{ResourceVersion: fmt.Sprint(f.currentRV())})
			require.NoError(t, err)
		}
		// Every watch cancelled at once, and stopped from as many goroutines.
		cancel()
		var wg sync.WaitGroup
		for _, w := range watchers {
			wg.Go(w.Stop)
		}
		wg.Wait()

		name := fmt.Sprintf("after-storm-%d", round)
		_, err := st.Create(f.ctx, f.info.Key(f.ns, "kept/"+name), f.configMap(name, nil, nil))
		require.NoError(t, err)
		select {
		case ev := <-keeper.ResultChan():
			require.Equal(t, api.Added, ev.Type)
			require.Equal(t, name, ev.Object.GetObjectMeta().Name)
		case <-time.After(30 * time.Second):
			require.FailNow(t, "the kept watch went quiet", "round %d: no event 30 s after a storm of cancelled watches on its client", round)
		}
	}
}
