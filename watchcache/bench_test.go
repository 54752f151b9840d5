package watchcache

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/grpc/metadata"

	"kubeloop/api"
	"kubeloop/store"
)

func benchPod(i int) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{
		Namespace: fmt.Sprintf("ns-%d", i%10), Name: fmt.Sprintf("pod-%05d", i),
		Labels: map[string]string{"app": fmt.Sprintf("app-%d", i%50), "tier": "backend"},
	}}
	p.Spec.NodeName = fmt.Sprintf("node-%d", i%100)
	p.Spec.RestartPolicy = "Always"
	p.Spec.Containers = []api.Container{{Name: "main", Image: "registry.example/app:1.0", Args: []string{"--port=8080"}}}
	return p
}

// fillPods writes n pods with 16 concurrent writers.
func fillPods(b *testing.B, s *store.Store, info *api.ResourceInfo, n int) {
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 16 {
				p := benchPod(i)
				if _, err := s.Create(ctx, info.Key(p.Namespace, p.Name), p); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkList10kPods: LIST of 10k pods from the cache (RV "0") against a
// consistent range read through the store (RV "").
func BenchmarkList10kPods(b *testing.B) {
	const n = 10000
	info := testInfo(b, "pods")
	s := store.New(etcd.Client(), info)
	fillPods(b, s, info, n)
	c, _ := startCacher(b, info, Options{})
	ctx := context.Background()
	cur, err := s.CurrentResourceVersion(ctx)
	require.NoError(b, err)
	waitCacheAt(b, c, cur)

	for _, impl := range []struct {
		name  string
		store store.Interface
		rv    string
	}{{"kubeloop", c, "0"}, {"etcd", s, ""}} {
		b.Run(impl.name, func(b *testing.B) {
			for b.Loop() {
				l, err := impl.store.List(ctx, info.KeyPrefix(), store.ListOptions{ResourceVersion: impl.rv})
				if err != nil || len(l.Items) != n {
					b.Fatalf("list: %v, %d items", err, len(l.Items))
				}
			}
		})
	}
}

// BenchmarkFanout1000Watchers: one write, delivered to 1000 watchers; the
// latency is from the start of the write to each watcher's receipt.
func BenchmarkFanout1000Watchers(b *testing.B) {
	const watchers = 1000
	info := testInfo(b, "configmaps")
	b.Run("kubeloop", func(b *testing.B) {
		c, _ := startCacher(b, info, Options{})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		obj, err := c.Create(ctx, info.Key("ns", "hot"), configMap("ns", "hot", nil))
		require.NoError(b, err)
		waitCacheAt(b, c, rvOf(b, obj))
		received := make(chan time.Time, watchers)
		for i := 0; i < watchers; i++ {
			w, err := c.Watch(ctx, info.KeyPrefix(), store.ListOptions{ResourceVersion: obj.GetObjectMeta().ResourceVersion})
			require.NoError(b, err)
			defer w.Stop()
			go func() {
				for range w.ResultChan() {
					received <- time.Now()
				}
			}()
		}
		writeAndReceive(b, c, info.Key("ns", "hot"), received, watchers)
	})
	// The reference: the same write watched by 1000 etcd watchers on the
	// client the cache itself uses, which is what every informer would hold
	// without a watch cache.
	b.Run("etcd", func(b *testing.B) {
		s := store.New(etcd.Client(), info)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		key := info.Key("ns", "hot-etcd")
		_, err := s.Create(ctx, key, configMap("ns", "hot-etcd", nil))
		require.NoError(b, err)
		received := make(chan time.Time, watchers)
		for i := 0; i < watchers; i++ {
			// A context of its own per watcher: clientv3 would otherwise
			// share one server-side stream among watches with equal contexts.
			wctx, wcancel := context.WithCancel(metadata.AppendToOutgoingContext(ctx, "watcher", fmt.Sprint(i)))
			defer wcancel()
			ch := etcd.Client().Watch(wctx, key, clientv3.WithCreatedNotify())
			if created := <-ch; !created.Created {
				b.Fatalf("watch %d: %v", i, created.Err())
			}
			go func() {
				for range ch {
					received <- time.Now()
				}
			}()
		}
		writeAndReceive(b, s, key, received, watchers)
	})
}

// writeAndReceive updates the ConfigMap at key once per iteration and
// waits for each of the watchers to receive it; it reports the p50 and p99
// latency from the start of the write to each receipt.
func writeAndReceive(b *testing.B, s store.Interface, key string, received <-chan time.Time, watchers int) {
	ctx := context.Background()
	var lat []float64
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		_, err := s.GuaranteedUpdate(ctx, key, nil, func(cur api.Object) (api.Object, error) {
			cur.(*api.ConfigMap).Data = map[string]string{"i": fmt.Sprint(i)}
			return cur, nil
		}, nil)
		if err != nil {
			b.Fatal(err)
		}
		for j := 0; j < watchers; j++ {
			lat = append(lat, float64((<-received).Sub(start))/float64(time.Millisecond))
		}
	}
	slices.Sort(lat)
	b.ReportMetric(lat[len(lat)/2], "p50-ms")
	b.ReportMetric(lat[len(lat)*99/100], "p99-ms")
}

// BenchmarkCacheMemory10kPods: heap held by the cache per cached pod.
func BenchmarkCacheMemory10kPods(b *testing.B) {
	const n = 10000
	info := testInfo(b, "pods")
	s := store.New(etcd.Client(), info)
	fillPods(b, s, info, n)
	b.Run("kubeloop", func(b *testing.B) {
		var perObject float64
		for b.Loop() {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			c, err := New(context.Background(), s, info, Options{})
			require.NoError(b, err)
			require.NoError(b, c.WaitReady(context.Background()))
			runtime.GC()
			runtime.ReadMemStats(&after)
			perObject = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
			c.Stop()
		}
		b.ReportMetric(perObject, "B/object")
	})
}
