package filters_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver"
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
	s, err := apiserver.New(apiserver.Config{
		NewStorage: func(_ context.Context, info *api.ResourceInfo) (store.Interface, error) {
			return panickyStore{store.New(srv.Etcd.Client(), info)}, nil
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
