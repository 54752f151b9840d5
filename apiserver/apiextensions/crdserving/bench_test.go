package crdserving_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kubeloop/apiserver"
)

// The benchmarks of issue 15, each reporting its comparison in one run:
//
//	go test -run '^$' -bench . ./apiserver/apiextensions/crdserving/
//
// docs/crds.md records what they measured.

var benchSeq atomic.Int64

// post sends body to path with client and fails the benchmark on anything
// but want.
func post(b *testing.B, c *http.Client, base, path, body string, want int) {
	req, err := http.NewRequest("POST", base+path, bytes.NewBufferString(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != want {
		b.Fatalf("POST %s: %d, want %d", path, resp.StatusCode, want)
	}
}

// createAll creates n objects at concurrency 16 and returns the rate.
func createAll(b *testing.B, c *http.Client, path string, n int, body func(i int) string) float64 {
	const concurrency = 16
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)); i <= n; i = int(next.Add(1)) {
				post(b, c, srv.URL, path, body(i), http.StatusCreated)
			}
		}()
	}
	wg.Wait()
	return float64(n) / time.Since(start).Seconds()
}

// BenchmarkCreateCustomResourceVsConfigMap creates ConfigMaps and custom
// resources (a schema with defaults, bounds, an enum, a list-map and a CEL
// rule) over HTTP, alternating, and reports both rates and their ratio
// (target: cr/cm ≥ 0.8).
func BenchmarkCreateCustomResourceVsConfigMap(b *testing.B) {
	// kubeloop: the line make bench's table reads (cmd/benchratio/rows.go).
	b.Run("kubeloop", benchmarkCreateCustomResourceVsConfigMap)
}

func benchmarkCreateCustomResourceVsConfigMap(b *testing.B) {
	group := fmt.Sprintf("bench%d.example.com", benchSeq.Add(1))
	post(b, srv.HTTPClient(), srv.URL, crdsPath, widgetCRD(group), http.StatusCreated)
	waitServed(b, "/apis/"+group+"/v1/widgets")
	ns := fmt.Sprintf("bench-create-%d", benchSeq.Add(1))
	post(b, srv.HTTPClient(), srv.URL, "/api/v1/namespaces", `{"metadata":{"name":"`+ns+`"}}`, http.StatusCreated)
	c := srv.HTTPClient()
	var cmRate, crRate float64
	round := 0
	for b.Loop() {
		round++
		r := round
		cmRate += createAll(b, c, "/api/v1/namespaces/"+ns+"/configmaps", 200, func(i int) string {
			return fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-%d-%d","labels":{"app":"w"}},"data":{"color":"red","replicas":"3"}}`, r, i)
		})
		crRate += createAll(b, c, widgets(group, ns), 200, func(i int) string {
			return fmt.Sprintf(`{"apiVersion":"%s/v1","kind":"Widget","metadata":{"name":"w-%d-%d","labels":{"app":"w"}},"spec":{"color":"red","replicas":3,"ports":[{"name":"http","port":80}]}}`, group, r, i)
		})
	}
	b.ReportMetric(cmRate/float64(round), "cm-creates/s")
	b.ReportMetric(crRate/float64(round), "cr-creates/s")
	b.ReportMetric(crRate/cmRate, "cr/cm")
}

// BenchmarkList10kCustomResources lists 10 000 custom resources from the
// watch cache (resourceVersion=0) and from etcd (an apiserver on the same
// etcd with the watch cache off), and reports both latencies.
func BenchmarkList10kCustomResources(b *testing.B) {
	group := fmt.Sprintf("bench%d.example.com", benchSeq.Add(1))
	post(b, srv.HTTPClient(), srv.URL, crdsPath, widgetCRD(group), http.StatusCreated)
	waitServed(b, "/apis/"+group+"/v1/widgets")
	ns := fmt.Sprintf("bench-list-%d", benchSeq.Add(1))
	post(b, srv.HTTPClient(), srv.URL, "/api/v1/namespaces", `{"metadata":{"name":"`+ns+`"}}`, http.StatusCreated)
	createAll(b, srv.HTTPClient(), widgets(group, ns), 10000, func(i int) string {
		return fmt.Sprintf(`{"apiVersion":"%s/v1","kind":"Widget","metadata":{"name":"w-%d"},"spec":{"color":"blue","replicas":2}}`, group, i)
	})
	direct, err := apiserver.New(apiserver.Config{Etcd: srv.Etcd.Client(), DisableWatchCache: true, Logger: slog.New(slog.DiscardHandler), CompactionInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer direct.Close()
	hs := httptest.NewServer(direct.Handler())
	defer hs.Close()
	list := func(c *http.Client, base, query string) time.Duration {
		start := time.Now()
		resp, err := c.Get(base + widgets(group, ns) + query)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || n < 10000*50 {
			b.Fatalf("list: %d, %d bytes", resp.StatusCode, n)
		}
		return time.Since(start)
	}
	var cached, etcd time.Duration
	rounds := 0
	for b.Loop() {
		rounds++
		cached += list(srv.HTTPClient(), srv.URL, "?resourceVersion=0")
		etcd += list(http.DefaultClient, hs.URL, "")
	}
	b.ReportMetric(float64(cached.Milliseconds())/float64(rounds), "cache-ms/list")
	b.ReportMetric(float64(etcd.Milliseconds())/float64(rounds), "etcd-ms/list")
}

// BenchmarkCRDCreateToServed is the time from the CRD's POST to the first
// 200 from its custom resources' collection.
func BenchmarkCRDCreateToServed(b *testing.B) {
	var total time.Duration
	n := 0
	for b.Loop() {
		n++
		group := fmt.Sprintf("served%d.example.com", benchSeq.Add(1))
		start := time.Now()
		post(b, srv.HTTPClient(), srv.URL, crdsPath, widgetCRD(group), http.StatusCreated)
		waitServed(b, "/apis/"+group+"/v1/widgets")
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(n), "ms-to-served")
}

func waitServed(b *testing.B, path string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+path, nil)
		resp, err := srv.HTTPClient().Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
	b.Fatalf("%s never served", path)
}
