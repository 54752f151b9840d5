package apiserver

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/store/storetest"
)

// An expired continue token (its revision compacted away) is 410, not 400.
// This test compacts, so it runs on its own etcd.
func TestContinueTokenAfterCompactionIsExpired(t *testing.T) {
	e := storetest.StartEtcd(t)
	s, err := New(Config{Etcd: e.Client(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	fetch := func(path string) response {
		resp, err := http.Get(hs.URL + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return response{Code: resp.StatusCode, Body: string(b)}
	}
	for _, n := range []string{"a", "b", "c"} {
		resp, err := http.Post(hs.URL+"/api/v1/namespaces/default/configmaps", "application/json", bytesReader([]byte(cmJSON(n, nil))))
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusCreated, resp.StatusCode)
	}
	page := fetch("/api/v1/namespaces/default/configmaps?limit=1")
	require.Equal(t, http.StatusOK, page.Code)
	cont, _ := get(page.obj(t), "metadata", "continue").(string)
	require.NotEmpty(t, cont)

	resp, err := http.Post(hs.URL+"/api/v1/namespaces/default/configmaps", "application/json", bytesReader([]byte(cmJSON("d", nil))))
	require.NoError(t, err)
	resp.Body.Close()
	status, err := e.Client().Status(context.Background(), e.Endpoints()[0])
	require.NoError(t, err)
	_, err = e.Client().Compact(context.Background(), status.Header.Revision)
	require.NoError(t, err)

	expired := fetch("/api/v1/namespaces/default/configmaps?limit=1&continue=" + cont)
	require.Equal(t, http.StatusGone, expired.Code, expired.Body)
	assert.Equal(t, "Expired", expired.obj(t)["reason"])
}
