package apiserver

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

// panickyStore panics on Get of the object named "boom".
type panickyStore struct{ store.Interface }

func (p panickyStore) Get(ctx context.Context, key string, opts store.GetOptions) (api.Object, error) {
	if strings.HasSuffix(key, "/boom") {
		panic("boom")
	}
	return p.Interface.Get(ctx, key, opts)
}

// lockedBuffer collects log output from concurrent handlers.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestPanicInHandlerIsInternalErrorAndServerKeepsServing(t *testing.T) {
	logs := &lockedBuffer{}
	s, err := New(Config{
		NewStorage: func(_ context.Context, info *api.ResourceInfo) (store.Interface, error) {
			return panickyStore{store.New(etcd.Client(), info)}, nil
		},
		Logger: slog.New(slog.NewTextHandler(logs, nil)),
	})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)

	resp, err := http.Get(hs.URL + "/api/v1/namespaces/default/configmaps/boom")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusInternalServerError, resp.StatusCode)
	assert.Contains(t, string(body), `"reason":"InternalError"`)
	assert.Contains(t, logs.String(), "panic in handler")
	assert.Contains(t, logs.String(), "goroutine")

	resp, err = http.Get(hs.URL + "/api/v1/namespaces/default/configmaps")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestServeShutsDownAndEndsWatches(t *testing.T) {
	s, err := New(Config{Etcd: etcd.Client(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
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
