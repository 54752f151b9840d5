package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
	"kubeloop/store"
)

// BenchmarkCreate compares store.Create with the bare etcd transaction it is
// built on (the same compare-and-put of the same bytes), at several levels
// of concurrency, against the same embedded etcd. The gap is the cost of
// the store itself: encoding, copying, error mapping.
func BenchmarkCreate(b *testing.B) {
	info := configMapInfo(b)
	for _, c := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("c=%d/etcd", c), func(b *testing.B) {
			client := etcd.Client()
			prefix := fmt.Sprintf("/registry/bench/raw-%d-%d/", c, time.Now().UnixNano())
			cm := benchConfigMap("template")
			cm.APIVersion, cm.Kind = "v1", "ConfigMap"
			data, err := json.Marshal(cm)
			if err != nil {
				b.Fatal(err)
			}
			forgetAfter(b, prefix)
			runConcurrently(b, c, func(ctx context.Context, i int64) error {
				key := fmt.Sprintf("%s%d", prefix, i)
				resp, err := client.Txn(ctx).
					If(clientv3.Compare(clientv3.ModRevision(key), "=", 0)).
					Then(clientv3.OpPut(key, string(data))).
					Commit()
				if err == nil && !resp.Succeeded {
					err = fmt.Errorf("%s exists", key)
				}
				return err
			})
		})
		b.Run(fmt.Sprintf("c=%d/kubeloop", c), func(b *testing.B) {
			s := store.New(etcd.Client(), info)
			ns := fmt.Sprintf("bench-%d-%d", c, time.Now().UnixNano())
			forgetAfter(b, info.KeyPrefix()+ns+"/")
			runConcurrently(b, c, func(ctx context.Context, i int64) error {
				cm := benchConfigMap(fmt.Sprintf("cm-%d", i))
				cm.Namespace = ns
				_, err := s.Create(ctx, info.Key(ns, cm.Name), cm)
				return err
			})
		})
	}
}

// forgetAfter deletes what a run wrote under prefix and compacts etcd's
// history when it ends, so that every run, whichever side and whatever
// its place in the order, starts from about the same etcd: without it the
// later runs wrote into a larger keyspace and history, and the side that
// always ran second (kubeloop) measured slower for that alone.
func forgetAfter(b *testing.B, prefix string) {
	b.Cleanup(func() {
		ctx := context.Background()
		resp, err := etcd.Client().Delete(ctx, prefix, clientv3.WithPrefix())
		if err != nil {
			b.Fatal(err)
		}
		// Physical: wait until the compaction is done, so that it does
		// not run during the next run.
		if _, err := etcd.Client().Compact(ctx, resp.Header.Revision, clientv3.WithCompactPhysical()); err != nil {
			b.Fatal(err)
		}
	})
}

func benchConfigMap(name string) *api.ConfigMap {
	return &api.ConfigMap{
		ObjectMeta: api.ObjectMeta{
			Name: name, Namespace: "bench", UID: "0b0f9a1e-5c2b-4d8e-9a53-2f1d1c7e0001",
			Labels: map[string]string{"app": "bench", "tier": "backend"},
		},
		Data: map[string]string{"config.yaml": "replicas: 5\nimage: nginx:1.27\nport: 8080\n"},
	}
}

// runConcurrently spreads b.N operations over c goroutines and reports the
// rate as objects/s.
func runConcurrently(b *testing.B, c int, op func(ctx context.Context, i int64) error) {
	ctx := context.Background()
	var next atomic.Int64
	var wg sync.WaitGroup
	var firstErr atomic.Value
	b.ResetTimer()
	start := time.Now()
	for range c {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				if err := op(ctx, i); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if err := firstErr.Load(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "objects/s")
}
