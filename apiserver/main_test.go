package apiserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/store"
	"kubeloop/store/storetest"
)

// One etcd and one apiserver for the whole package; every test works in
// its own namespace.
var (
	etcd    *store.Embedded
	srv     *Server
	baseURL string
	nsSeq   atomic.Int64
)

func TestMain(m *testing.M) {
	storetest.Main(m, func(e *store.Embedded) {
		etcd = e
		s, err := New(Config{
			Etcd:   e.Client(),
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
		if err != nil {
			panic(err)
		}
		srv = s
		hs := httptest.NewServer(s.Handler())
		baseURL = hs.URL
	})
}

// newNamespace creates a fresh namespace for one test.
func newNamespace(t *testing.T) string {
	t.Helper()
	name := fmt.Sprintf("t%d-%s", nsSeq.Add(1), strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-")))
	if len(name) > 63 {
		name = name[:63]
	}
	name = strings.TrimRight(name, "-_")
	name = strings.ReplaceAll(name, "_", "-")
	resp := do(t, "POST", "/api/v1/namespaces", "", fmt.Sprintf(`{"metadata":{"name":%q}}`, name))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	return name
}

// response is a finished HTTP exchange.
type response struct {
	Code   int
	Header http.Header
	Body   string
}

func (r response) decode(t *testing.T, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal([]byte(r.Body), v), r.Body)
}

// obj decodes the body into a generic map.
func (r response) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	r.decode(t, &m)
	return m
}

// do sends one request; contentType "" with a body means JSON.
func do(t *testing.T, method, path, contentType, body string) response {
	t.Helper()
	return doCtx(t, context.Background(), method, path, contentType, body)
}

func doCtx(t *testing.T, ctx context.Context, method, path, contentType, body string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = bytes.NewBufferString(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, baseURL+path, rd)
	require.NoError(t, err)
	if body != "" {
		if contentType == "" {
			contentType = "application/json"
		}
		if contentType != "none" {
			req.Header.Set("Content-Type", contentType)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{Code: resp.StatusCode, Header: resp.Header, Body: string(data)}
}

// get walks a decoded JSON object by path.
func get(m map[string]any, path ...string) any {
	var cur any = m
	for _, p := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[p]
	}
	return cur
}

func cmJSON(name string, data map[string]string) string {
	b, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}, "data": data})
	return string(b)
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

func storeGetLatest() store.GetOptions { return store.GetOptions{} }
