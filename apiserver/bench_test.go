package apiserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
	"kubeloop/internal/benchtest"
	"kubeloop/store"
)

// BenchmarkCreateConfigMaps creates ConfigMaps at concurrency 64 through the
// apiserver over HTTP (kubeloop), over HTTPS (https-) and as raw etcd create
// transactions on the same etcd through gRPC on its endpoints (etcd), and
// reports the rate, the CPU per create and the p50/p99 latency of create,
// get and list of each. The apiserver is driven once with JSON bodies and
// answers (kubectl's and dynamic clients' way) and once with protobuf
// (client-go's typed clients' default). The target is kubeloop over HTTP ≥
// 0.6× etcd for both, as issue 20 words it, and create p99 ≤ 20 ms.
//
// Why HTTP beside HTTPS: the reference speaks gRPC without TLS, so the
// like-for-like row is the apiserver without it, one server handler
// (srv.API.Handler) served plainly as `kubeloop apiserver --insecure-http`
// serves it. Over HTTP client-go speaks HTTP/1.1, a connection per
// concurrent request; over HTTPS it speaks HTTP/2 with all 64 workers on one
// connection, and TLS and Go's HTTP/2 framing cost as much as the whole
// reference (BenchmarkCreateTransportFloor, docs/performance.md). The HTTPS
// arm, the default of every kubeloop cluster, stays in the table beside it.
//
// The three sides run interleaved in rounds in one benchmark
// (internal/benchtest): the line is <wire>/c=64/kubeloop, the others'
// figures beside kubeloop's with the prefixes https- and etcd-
// (etcd-objects/s, https-cpu-us/object, https-create-p99-ms). Run one after
// the other, the later sides paid for a burst of load that hit only them
// and wrote into an etcd the first had grown; ns/op is the time of one
// create of each side.
//
// What each side does per create: the client encodes a ConfigMap and
// sends it; the apiserver decodes, authenticates, authorizes, admits,
// records managedFields, encodes and commits the create transaction, and
// encodes the answer; the reference encodes a ConfigMap of the same shape
// (name, namespace, uid, creationTimestamp, data) and commits the same
// transaction, If(ModRevision(key) = 0) Then(Put), under a key of the same
// length. The apiserver reaches etcd in-process; the reference pays gRPC
// over loopback. The clients are client-go's transports, and the timed
// operation is the POST alone (gets and lists are sampled after the timer).
//
// On two cores the ratio follows the machine's load, not only the code:
// the reference is a pipeline of a few etcd goroutines that a busy
// neighbour stalls, while the kubeloop arm is bound by its CPU. The same
// build gave 0.37× over HTTPS on a quiet machine and 0.40 to 0.76× at load
// 1 to 10 (docs/performance.md, session 7).
func BenchmarkCreateConfigMaps(b *testing.B) {
	const concurrency = 64
	plain := httptest.NewServer(srv.API.Handler())
	b.Cleanup(plain.Close)
	for _, w := range []wire{jsonWire, protobufWire} {
		b.Run(fmt.Sprintf("%s/c=%d/kubeloop", w.name, concurrency), func(b *testing.B) {
			ns := fmt.Sprintf("bench-%d", benchSeq.Add(1))
			for _, name := range []string{ns, "tls-" + ns} {
				if code := srv.Do(b, "POST", "/api/v1/namespaces", "", `{"metadata":{"name":"`+name+`"}}`).Code; code != http.StatusCreated {
					b.Fatalf("create namespace: %d", code)
				}
			}
			ours := newServerSide(plain.URL, &http.Client{Transport: http.DefaultTransport}, ns, w)
			overTLS := newServerSide(srv.URL, srv.HTTPClient(), "tls-"+ns, w)
			raw := newEtcdSide(b, "raw-"+ns)
			arms := []*benchtest.Arm{{Op: ours.create}, {Unit: "https-", Op: overTLS.create}, {Unit: "etcd-", Op: raw.create}}
			benchtest.Interleave(b, concurrency, arms...)
			for _, arm := range arms {
				arm.Report(b, "create")
			}
			// Reads are sampled after the timer, a side at a time.
			for _, side := range []struct {
				unit string
				s    benchSide
			}{{"", ours}, {"https-", overTLS}, {"etcd-", raw}} {
				benchtest.ReportLatencies(b, side.unit+"get", runConcurrent(b, concurrency, min(b.N, 1000), side.s.get))
				benchtest.ReportLatencies(b, side.unit+"list", runConcurrent(b, 4, min(b.N, 50), side.s.list))
			}
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

// benchSide is what one side of BenchmarkCreateConfigMaps does: create
// configmap cm-<i>, get it, list 500.
type benchSide struct {
	create, get, list func(i int) error
}

// newServerSide drives the server at baseURL through hc (whose identity
// is the caller's choice) in the namespace ns.
func newServerSide(baseURL string, hc *http.Client, ns string, w wire) benchSide {
	tr := hc.Transport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 256, 256
	client := &http.Client{Transport: tr}
	do := func(method, path, contentType string, body []byte) (int, error) {
		req, err := http.NewRequest(method, baseURL+path, bytes.NewReader(body))
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
	return benchSide{
		create: func(i int) error {
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
		get:  func(i int) error { return getter(fmt.Sprintf("%s/cm-%d", path, i)) },
		list: func(int) error { return getter(path + "?limit=500") },
	}
}

// newEtcdSide is the reference: etcd as its clients see it, through gRPC on
// its endpoints (srv.Etcd.Client() would call the embedded server
// in-process, which no client outside this process can do), writing
// under keys as long as the apiserver's but outside /registry/: there
// the apiserver's configmap watch cache would decode and keep every
// object the reference writes, and charge it to the reference's rounds.
func newEtcdSide(b *testing.B, ns string) benchSide {
	cli, err := store.NewClient(srv.Etcd.Endpoints())
	require.NoError(b, err)
	b.Cleanup(func() { _ = cli.Close() })
	prefix := "/benchraw/core/configmaps/" + ns + "/"
	ctx := context.Background()
	return benchSide{
		create: func(i int) error {
			name := fmt.Sprintf("cm-%d", i)
			key := prefix + name
			cm := &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
				ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, UID: "0b0f9a1e-5c2b-4d8e-9a53-2f1d1c7e0001", CreationTimestamp: api.Now()},
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
		get: func(i int) error {
			_, err := cli.Get(ctx, fmt.Sprintf("%scm-%d", prefix, i))
			return err
		},
		list: func(int) error {
			_, err := cli.Get(ctx, prefix, clientv3.WithPrefix(), clientv3.WithLimit(500))
			return err
		},
	}
}

// runConcurrent runs op(0) … op(n-1) on concurrency workers and returns
// the latencies.
func runConcurrent(b *testing.B, concurrency, n int, op func(i int) error) []time.Duration {
	return benchtest.Concurrent(b, concurrency, n, op)
}
