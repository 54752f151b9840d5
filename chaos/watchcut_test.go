package chaos

import (
	"context"
	"log/slog"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
)

// During churn (writers creating and updating ConfigMaps), the watch
// connections of three informers are cut at random and etcd is compacted
// to its current revision every second, so that a watch resuming from
// where it was cut often gets 410 Gone and its informer relists. At the
// end every informer equals a fresh LIST, no resourceVersion went back,
// and every acknowledged write is there.
func TestInformersSurviveCutWatchesAndCompaction(t *testing.T) {
	churn := time.Duration(size(8, 60)) * time.Second
	ctx := testCtx(t, churn+5*time.Minute)
	c, err := cluster.Start(ctx, cluster.Options{Logger: slog.Default()})
	require.NoError(t, err)
	t.Cleanup(c.Stop)

	ns := "chaos-cut"
	_, err = client.For[*api.Namespace](c.Client).Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}, client.CreateOptions{})
	require.NoError(t, err)

	// The informers reach the apiserver only through the cutter.
	u, err := url.Parse(c.Config.Host)
	require.NoError(t, err)
	proxy := startCutter(t, u.Host)
	viaProxy := *c.Config
	u.Host = proxy.addr()
	viaProxy.Host = u.String()
	if viaProxy.TLS.ServerName == "" {
		viaProxy.TLS.ServerName = "127.0.0.1"
	}
	proxied, err := client.NewForConfig(&viaProxy)
	require.NoError(t, err)

	cmInfo, _ := api.ForType[*api.ConfigMap](api.Builtin())
	var informers []*watchedInformer
	for range 3 {
		informers = append(informers, startInformer(t, proxied, cmInfo, ns))
	}

	l := newLedger()
	churnCtx, stopChurn := context.WithTimeout(ctx, churn)
	defer stopChurn()
	var wg sync.WaitGroup
	direct := func() *client.Client { return c.Client }
	for id := range size(4, 16) {
		wg.Go(func() { writer(churnCtx, direct, l, ns, id, 10) })
	}
	stopCuts := make(chan struct{})
	wg.Go(func() { proxy.cutAtRandom(20, stopCuts) })
	compactions := 0
	wg.Go(func() {
		for churnCtx.Err() == nil {
			select {
			case <-churnCtx.Done():
			case <-time.After(time.Second):
				resp, err := c.Etcd.Get(churnCtx, "compact-probe")
				if err == nil {
					if _, err := c.Etcd.Compact(churnCtx, resp.Header.Revision); err == nil {
						compactions++
					}
				}
			}
		}
	})
	<-churnCtx.Done()
	close(stopCuts)
	wg.Wait()
	t.Logf("%d connections cut, %d compactions, %d writes acknowledged", proxy.cutCount(), compactions, l.acknowledged())
	require.Positive(t, proxy.cutCount(), "no connection was cut: the scenario tested nothing")
	require.Positive(t, compactions)

	checkLedger(t, c.Client, l, ns)
	for _, inf := range informers {
		requireConverged(t, c.Client, cmInfo, ns, inf)
	}
}
