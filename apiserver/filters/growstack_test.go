package filters_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/filters"
	"kubeloop/internal/benchtest"
)

// WithGrownStack is invisible to the handler: every request, short or
// long-running, reaches it with its body and answers as it wrote them.
func TestWithGrownStackPassesEveryRequestOn(t *testing.T) {
	var seen []string
	h := filters.WithRequestInfo(filters.WithGrownStack(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		seen = append(seen, r.Method+" "+r.URL.String()+" "+string(body))
		w.WriteHeader(http.StatusAccepted)
	})))
	for _, req := range []*http.Request{
		httptest.NewRequest("POST", "/api/v1/namespaces/a/configmaps", bytes.NewReader([]byte(`{"x":1}`))),
		httptest.NewRequest("GET", "/api/v1/namespaces/a/configmaps?watch=true", nil),
		httptest.NewRequest("GET", "/healthz", nil),
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		require.Equal(t, http.StatusAccepted, rec.Code)
	}
	require.Equal(t, []string{
		`POST /api/v1/namespaces/a/configmaps {"x":1}`,
		"GET /api/v1/namespaces/a/configmaps?watch=true ",
		"GET /healthz ",
	}, seen)
}

// BenchmarkGrownStack serves a create's work — strictly decoding a
// ConfigMap body with managedFields and encoding the answer — on a fresh
// goroutine per request, as net/http's HTTP/2 server does, with the
// stack grown first (grown) and without (plain), beside a thousand idle
// goroutines (an apiserver's watches): they keep the runtime's estimate of
// a new goroutine's stack small, as in a server. Compare cpu-ns/op, the
// process's CPU per request: on a loaded machine ns/op is mostly the wait
// for a core between the two goroutine switches.
func BenchmarkGrownStack(b *testing.B) {
	idle := make(chan struct{})
	defer close(idle)
	for range 1000 {
		go func() { <-idle }()
	}
	body := []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-1","namespace":"bench",` +
		`"labels":{"app":"web","tier":"backend"},"managedFields":[{"manager":"kubectl","operation":"Update",` +
		`"apiVersion":"v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},` +
		`"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:app":{},"f:tier":{}}}}}]},"data":{"k":"v"}}`)
	create := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var cm api.ConfigMap
		if _, _, err := api.DecodeStrict(body, &cm); err != nil {
			b.Error(err)
			return
		}
		out, err := api.Encode(&cm)
		if err != nil {
			b.Error(err)
			return
		}
		_, _ = w.Write(out)
	})
	for _, c := range []struct {
		name string
		h    http.Handler
	}{
		{"grown", filters.WithRequestInfo(filters.WithGrownStack(create))},
		{"plain", filters.WithRequestInfo(create)},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest("POST", "/api/v1/namespaces/bench/configmaps", nil)
			done := make(chan struct{})
			b.ReportAllocs()
			cpu := benchtest.ProcessCPU(b)
			for b.Loop() {
				go func() {
					c.h.ServeHTTP(httptest.NewRecorder(), req)
					done <- struct{}{}
				}()
				<-done
			}
			b.ReportMetric(float64((benchtest.ProcessCPU(b)-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
