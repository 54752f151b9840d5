package apiserver_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver"
)

func TestServeShutsDownAndEndsWatches(t *testing.T) {
	s, err := apiserver.New(apiserver.Config{Etcd: srv.Etcd.Client(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()

	resp, err := http.Get("http://" + ln.Addr().String() + "/api/v1/namespaces/default/configmaps?watch=true")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
		}
	}()

	cancel()
	select {
	case err := <-served:
		require.NoError(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not return")
	}
	select {
	case <-ended:
	case <-time.After(20 * time.Second):
		t.Fatal("watch stream did not end")
	}
}

func TestVersionHealthAndMetrics(t *testing.T) {
	v := do(t, "GET", "/version", "", "").Obj(t)
	assert.Equal(t, "v1.37.0-kubeloop", v["gitVersion"])
	assert.Equal(t, "1", v["major"])
	assert.Equal(t, "37", v["minor"])
	for _, p := range []string{"/healthz", "/livez", "/readyz"} {
		resp := do(t, "GET", p, "", "")
		assert.Equal(t, http.StatusOK, resp.Code, p)
		assert.Equal(t, "ok", resp.Body)
	}
	do(t, "GET", "/api/v1/namespaces/default/configmaps", "", "")
	m := do(t, "GET", "/metrics", "", "")
	require.Equal(t, http.StatusOK, m.Code)
	assert.Contains(t, m.Body, `apiserver_request_total{code="200",resource="configmaps",subresource="",verb="list"}`)
	assert.Contains(t, m.Body, "apiserver_request_duration_seconds_bucket")
	assert.True(t, strings.Contains(m.Body, "watch_cache") || strings.Contains(m.Body, "watchcache"), "watch cache metrics are served too")
}
