package apiserver_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/internal/benchtest"
)

// BenchmarkCreateTransportFloor is what BenchmarkCreateConfigMaps's
// kubeloop arm pays before the apiserver does anything: the same client,
// the same requests over HTTP/2 and TLS on one connection at concurrency
// 64, against a server that reads the body and answers the bytes the
// apiserver answered to one such create (transport-cpu-us/object). It runs
// interleaved with the apiserver's creates (cpu-us/object) and raw etcd's
// (etcd-cpu-us/object), so the three are read from the same machine:
// the apiserver's own work (handlers, store, etcd in-process, watch
// cache, their garbage) is the first minus the second. Not in make bench:
// it explains a row, it is not one (docs/performance.md, session 8).
func BenchmarkCreateTransportFloor(b *testing.B) {
	const concurrency = 64
	for _, w := range []wire{jsonWire, protobufWire} {
		b.Run(fmt.Sprintf("%s/c=%d/kubeloop", w.name, concurrency), func(b *testing.B) {
			ns := fmt.Sprintf("bench-%d", benchSeq.Add(1))
			if code := srv.Do(b, "POST", "/api/v1/namespaces", "", `{"metadata":{"name":"`+ns+`"}}`).Code; code != http.StatusCreated {
				b.Fatalf("create namespace: %d", code)
			}
			ours := newServerSide(srv.URL, srv.HTTPClient(), ns, w)
			floor := newFloorSide(b, w, ns)
			raw := newEtcdSide(b, "raw-"+ns)
			arms := []*benchtest.Arm{
				{Op: ours.create},
				{Unit: "transport-", Op: floor},
				{Unit: "etcd-", Op: raw.create},
			}
			benchtest.Interleave(b, concurrency, arms...)
			for _, arm := range arms {
				arm.Report(b, "create")
			}
		})
	}
}

// newFloorSide is a create whose server does nothing but read the body
// and answer: the answer is what the apiserver answered to a create of
// configmap cm-floor in ns, with its Content-Type.
func newFloorSide(b *testing.B, w wire, ns string) func(i int) error {
	answer, contentType := sampleAnswer(b, w, ns)
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			rw.WriteHeader(http.StatusBadRequest)
			return
		}
		rw.Header().Set("Content-Type", contentType)
		rw.WriteHeader(http.StatusCreated)
		_, _ = rw.Write(answer)
	}))
	hs.EnableHTTP2 = true
	hs.StartTLS()
	b.Cleanup(hs.Close)
	// The client is the test server's, cloned by newServerSide as it
	// clones the apiserver's: HTTP/2, one connection.
	floor := newServerSide(hs.URL, hs.Client(), ns, w)
	return floor.create
}

// sampleAnswer creates configmap cm-floor in ns through the apiserver as
// the benchmark's client does and returns the answer and its type.
func sampleAnswer(b *testing.B, w wire, ns string) ([]byte, string) {
	body, err := w.encode(&api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: api.ObjectMeta{Name: "cm-floor"}, Data: map[string]string{"k": "v"}})
	require.NoError(b, err)
	req, err := http.NewRequest("POST", srv.URL+"/api/v1/namespaces/"+ns+"/configmaps", bytes.NewReader(body))
	require.NoError(b, err)
	req.Header.Set("Content-Type", w.contentType)
	req.Header.Set("Accept", w.accept)
	resp, err := srv.HTTPClient().Do(req)
	require.NoError(b, err)
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	require.NoError(b, err)
	require.Equal(b, http.StatusCreated, resp.StatusCode, "%s", answer)
	return answer, resp.Header.Get("Content-Type")
}
