package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
	"kubeloop/internal/benchtest"
	"kubeloop/store"
)

// BenchmarkCreate compares store.Create with the bare etcd transaction it is
// built on, at several levels of concurrency, against the same embedded
// etcd through the same in-process client. Both sides do the same work a
// client storing distinct ConfigMaps must do: encode each object and send
// Kubernetes' create transaction, If(ModRevision(key) = 0)
// Then(Put(key, value)), with keys of the same shape and size (the
// reference encodes JSON with encoding/json; the store protobuf, as
// Kubernetes stores a ConfigMap, after setting its apiVersion and kind:
// 180 bytes against 242). The gap is the cost of the store itself: its
// codec, the resourceVersion, error mapping.
//
// The reference once encoded one object outside the loop and sent those
// bytes every time: a cheaper operation than any create, which made the
// store's required encoding look like overhead.
//
// The two sides run interleaved in rounds (internal/benchtest), so that
// they share the machine's load and etcd's size; the line is
// c=N/kubeloop, with the reference as etcd-objects/s and
// etcd-cpu-us/object beside kubeloop's objects/s and cpu-us/object.
func BenchmarkCreate(b *testing.B) {
	info := configMapInfo(b)
	client := etcd.Client()
	for _, c := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("c=%d/kubeloop", c), func(b *testing.B) {
			run := fmt.Sprintf("%d-%d", c, time.Now().UnixNano())
			// Namespaces of equal length: equal keys and values in size.
			ours, raw := "bench-k-"+run, "bench-e-"+run
			forgetAfter(b, info.KeyPrefix()+ours+"/")
			forgetAfter(b, info.KeyPrefix()+raw+"/")
			s := store.New(client, info)
			ctx := context.Background()
			kubeloop := &benchtest.Arm{Op: func(i int) error {
				cm := benchConfigMap(fmt.Sprintf("cm-%d", i))
				cm.Namespace = ours
				_, err := s.Create(ctx, info.Key(ours, cm.Name), cm)
				return err
			}}
			reference := &benchtest.Arm{Unit: "etcd-", Op: func(i int) error {
				cm := benchConfigMap(fmt.Sprintf("cm-%d", i))
				cm.Namespace = raw
				cm.APIVersion, cm.Kind = "v1", "ConfigMap"
				data, err := json.Marshal(cm)
				if err != nil {
					return err
				}
				key := info.Key(raw, cm.Name)
				resp, err := client.Txn(ctx).
					If(clientv3.Compare(clientv3.ModRevision(key), "=", 0)).
					Then(clientv3.OpPut(key, string(data))).
					Commit()
				if err == nil && !resp.Succeeded {
					err = fmt.Errorf("%s exists", key)
				}
				return err
			}}
			benchtest.Interleave(b, c, kubeloop, reference)
			kubeloop.Report(b, "create")
			reference.Report(b, "create")
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
