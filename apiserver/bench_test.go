package apiserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
	"kubeloop/apiserver/apiservertest"
	"kubeloop/store"
)

// BenchmarkCreateConfigMaps creates ConfigMaps at concurrency 64 through the
// apiserver over HTTP (kubeloop) and as raw etcd create transactions on the
// same etcd (etcd), and reports the rate and the p50/p99 latency of create,
// get and list. The apiserver is driven once with JSON bodies and answers
// (kubectl's and dynamic clients' way) and once with protobuf (client-go's
// typed clients' default); each has its own etcd reference run beside it.
// The target is kubeloop ≥ 0.6× etcd for both.
func BenchmarkCreateConfigMaps(b *testing.B) {
	const concurrency = 64
	for _, w := range []wire{jsonWire, protobufWire} {
		b.Run(fmt.Sprintf("%s/c=%d/kubeloop", w.name, concurrency), func(b *testing.B) {
			benchKubeloop(b, concurrency, w)
		})
		b.Run(fmt.Sprintf("%s/c=%d/etcd", w.name, concurrency), func(b *testing.B) {
			benchEtcd(b, concurrency)
		})
	}
}

// wire is how the benchmark's client writes bodies and asks for answers.
type wire struct {
	name, contentType, accept string
	encode                    func(cm *api.ConfigMap) ([]byte, error)
}

var (
	jsonWire = wire{name: "json", contentType: "application/json", accept: "application/json",
		encode: func(cm *api.ConfigMap) ([]byte, error) { return json.Marshal(cm) }}
	protobufWire = wire{name: "protobuf", contentType: "application/vnd.kubernetes.protobuf",
		accept: "application/vnd.kubernetes.protobuf,application/json",
		encode: func(cm *api.ConfigMap) ([]byte, error) { return api.EncodeProtobuf(cm) }}
)

var benchSeq atomic.Int64

func benchKubeloop(b *testing.B, concurrency int, w wire) {
	ns := fmt.Sprintf("bench-%d", benchSeq.Add(1))
	if code := srv.Do(b, "POST", "/api/v1/namespaces", "", `{"metadata":{"name":"`+ns+`"}}`).Code; code != http.StatusCreated {
		b.Fatalf("create namespace: %d", code)
	}
	benchServer(b, srv, srv.HTTPClient(), ns, concurrency, w)
}

// benchServer drives s through hc (whose identity is the caller's choice)
// in the namespace ns.
func benchServer(b *testing.B, s *apiservertest.Server, hc *http.Client, ns string, concurrency int, w wire) {
	tr := hc.Transport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 256, 256
	client := &http.Client{Transport: tr}
	do := func(method, path, contentType string, body []byte) (int, error) {
		req, err := http.NewRequest(method, s.URL+path, bytes.NewReader(body))
		if err != nil {
			return 0, err
		}
		if body != nil {
			req.Header.Set("Content-Type", contentType)
		}
		req.Header.Set("Accept", w.accept)
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	getter := func(url string) error {
		code, err := do("GET", url, "", nil)
		if err == nil && code != http.StatusOK {
			err = fmt.Errorf("GET %s: %d", url, code)
		}
		return err
	}
	runBench(b, concurrency,
		func(i int) error {
			body, err := w.encode(&api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
				ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("cm-%d", i)}, Data: map[string]string{"k": "v"}})
			if err != nil {
				return err
			}
			code, err := do("POST", path, w.contentType, body)
			if err == nil && code != http.StatusCreated {
				err = fmt.Errorf("create: %d", code)
			}
			return err
		},
		func(i int) error { return getter(fmt.Sprintf("%s/cm-%d", path, i)) },
		func() error { return getter(path + "?limit=500") },
	)
}

// benchEtcd is the reference: etcd as its clients see it, through gRPC on
// its endpoints. (srv.Etcd.Client() would call the embedded server in-process,
// which no client outside this process can do.)
func benchEtcd(b *testing.B, concurrency int) {
	cli, err := store.NewClient(srv.Etcd.Endpoints())
	require.NoError(b, err)
	b.Cleanup(func() { _ = cli.Close() })
	prefix := fmt.Sprintf("/bench-raw/%d/", benchSeq.Add(1))
	ctx := context.Background()
	runBench(b, concurrency,
		func(i int) error {
			key := fmt.Sprintf("%scm-%d", prefix, i)
			cm := &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
				ObjectMeta: api.ObjectMeta{Name: key, Namespace: "bench", UID: "u", CreationTimestamp: api.Now()},
				Data:       map[string]string{"k": "v"}}
			data, err := json.Marshal(cm)
			if err != nil {
				return err
			}
			resp, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(key), "=", 0)).
				Then(clientv3.OpPut(key, string(data))).Commit()
			if err == nil && !resp.Succeeded {
				err = fmt.Errorf("%s exists", key)
			}
			return err
		},
		func(i int) error {
			_, err := cli.Get(ctx, fmt.Sprintf("%scm-%d", prefix, i))
			return err
		},
		func() error {
			_, err := cli.Get(ctx, prefix, clientv3.WithPrefix(), clientv3.WithLimit(500))
			return err
		},
	)
}

// runBench times b.N creates spread over concurrency workers, then samples
// get and list latencies outside the timer.
func runBench(b *testing.B, concurrency int, create, getOne func(i int) error, list func() error) {
	b.ResetTimer()
	createLat := runConcurrent(b, concurrency, b.N, create)
	b.StopTimer()
	elapsed := b.Elapsed()
	samples := min(b.N, 1000)
	getLat := runConcurrent(b, concurrency, samples, getOne)
	listLat := runConcurrent(b, 4, min(b.N, 50), func(int) error { return list() })
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "objects/s")
	report := func(name string, lat []time.Duration) {
		if len(lat) == 0 {
			return
		}
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, name+"-p99-ms")
	}
	report("create", createLat)
	report("get", getLat)
	report("list", listLat)
}

func runConcurrent(b *testing.B, concurrency, n int, op func(i int) error) []time.Duration {
	var (
		next atomic.Int64
		mu   sync.Mutex
		all  []time.Duration
		wg   sync.WaitGroup
	)
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					break
				}
				start := time.Now()
				if err := op(i); err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(start))
			}
			mu.Lock()
			all = append(all, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return all
}
