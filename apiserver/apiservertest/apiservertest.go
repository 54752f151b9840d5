// Package apiservertest starts a real kubeloop apiserver for the tests of
// the apiserver's layers: a real embedded etcd (storetest), the whole
// server as New builds it, and an HTTPS server on 127.0.0.1 in front of it
// that trusts client certificates of a test CA. Do and HTTPClient send
// requests as the cluster admin (O=system:masters); AsUser makes a client
// for any other identity.
// There is no fake store and no fake handler chain: a test of the registry
// or of a handler sends the HTTP request a client would and reads the
// answer, and may look in etcd to see what was (or was not) stored.
//
// One server per test package is enough; share it from TestMain and give
// each test its own namespace:
//
//	var srv *apiservertest.Server
//
//	func TestMain(m *testing.M) {
//		apiservertest.Main(m, func(s *apiservertest.Server) { srv = s })
//	}
package apiservertest

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
	"kubeloop/apiserver"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/pki"
	"kubeloop/store"
	"kubeloop/store/storetest"
)

// Server is an apiserver on a real etcd, served over HTTPS.
type Server struct {
	Etcd *store.Embedded
	API  *apiserver.Server
	// URL is the HTTPS server's base URL.
	URL string
	// CA signed the serving certificate and every client certificate the
	// server trusts; CAData is its PEM, for a kubeconfig or client.Config.
	CA *pki.CA
	// Admin is the admin's client certificate (kubernetes-admin,
	// system:masters).
	Admin *pki.KeyPair
	admin *http.Client
	nsSeq atomic.Int64
	// users caches AsUser's clients by identity, so that a test asking as
	// the same user twice reuses its certificate and connections.
	users sync.Map
}

// Main is a TestMain body: it starts etcd and one apiserver, hands it to
// setup, runs the package's tests and exits with their status.
func Main(m *testing.M, setup func(*Server)) {
	MainWith(m, apiserver.Config{}, setup)
}

// MainWith is Main with a config to start from (Etcd, Logger and the
// client CA are filled in).
func MainWith(m *testing.M, cfg apiserver.Config, setup func(*Server)) {
	storetest.Main(m, func(e *store.Embedded) {
		s, err := Start(e, cfg)
		if err != nil {
			panic(err)
		}
		setup(s)
	})
}

// Start starts an apiserver over e, served over HTTPS on 127.0.0.1. The
// server lives as long as the test binary.
func Start(e *store.Embedded, cfg apiserver.Config) (*Server, error) {
	ca, err := pki.NewCA("apiservertest-ca")
	if err != nil {
		return nil, err
	}
	serving, err := ca.IssueServing("kube-apiserver", []string{"127.0.0.1", "localhost"})
	if err != nil {
		return nil, err
	}
	admin, err := ca.IssueClient("kubernetes-admin", []string{user.SystemPrivilegedGroup})
	if err != nil {
		return nil, err
	}
	// Several servers share e's client in one test binary: one closing
	// cancels its watches at once, each on a stream of its own
	// (store/watch_streams.go), so the others' watch caches go on.
	cfg.Etcd = e.Client()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.Authentication.ClientCA = ca.Pool()
	s, err := apiserver.New(cfg)
	if err != nil {
		return nil, err
	}
	cert, err := tls.X509KeyPair(serving.CertPEM, serving.KeyPEM)
	if err != nil {
		return nil, err
	}
	hs := httptest.NewUnstartedServer(s.Handler())
	hs.EnableHTTP2 = true
	hs.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, ClientAuth: tls.RequestClientCert}
	hs.StartTLS()
	srv := &Server{Etcd: e, API: s, URL: hs.URL, CA: ca, Admin: admin}
	if srv.admin, err = srv.httpClient(admin); err != nil {
		return nil, err
	}
	return srv, nil
}

// HTTPClient is an HTTP client that trusts the server and presents the
// admin's certificate.
func (s *Server) HTTPClient() *http.Client { return s.admin }

// AsUser returns an HTTP client whose certificate names user name in
// groups; with name "" it presents no certificate (anonymous).
func (s *Server) AsUser(t testing.TB, name string, groups ...string) *http.Client {
	t.Helper()
	key := name + "\x00" + strings.Join(groups, "\x00")
	if c, ok := s.users.Load(key); ok {
		return c.(*http.Client)
	}
	var kp *pki.KeyPair
	if name != "" {
		var err error
		kp, err = s.CA.IssueClient(name, groups)
		require.NoError(t, err)
	}
	c, err := s.httpClient(kp)
	require.NoError(t, err)
	actual, _ := s.users.LoadOrStore(key, c)
	return actual.(*http.Client)
}

func (s *Server) httpClient(kp *pki.KeyPair) (*http.Client, error) {
	cfg := &tls.Config{RootCAs: s.CA.Pool(), MinVersion: tls.VersionTLS12}
	if kp != nil {
		pair, err := tls.X509KeyPair(kp.CertPEM, kp.KeyPEM)
		if err != nil {
			return nil, err
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = cfg
	t.ForceAttemptHTTP2 = true
	return &http.Client{Transport: t}, nil
}

// NewNamespace creates a fresh namespace for one test.
func (s *Server) NewNamespace(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("t%d-%s", s.nsSeq.Add(1), strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-")))
	if len(name) > 63 {
		name = name[:63]
	}
	name = strings.TrimRight(name, "-_")
	name = strings.ReplaceAll(name, "_", "-")
	resp := s.Do(t, "POST", "/api/v1/namespaces", "", fmt.Sprintf(`{"metadata":{"name":%q}}`, name))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	return name
}

// Response is a finished HTTP exchange.
type Response struct {
	Code   int
	Header http.Header
	Body   string
}

// Decode decodes the body into v.
func (r Response) Decode(t testing.TB, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal([]byte(r.Body), v), r.Body)
}

// Obj decodes the body into a generic map.
func (r Response) Obj(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.Decode(t, &m)
	return m
}

// Do sends one request. contentType "" with a body means JSON; "none"
// sends the body with no Content-Type header at all.
func (s *Server) Do(t testing.TB, method, path, contentType, body string) Response {
	t.Helper()
	return s.DoWith(t, context.Background(), method, path, contentType, body, nil)
}

// DoWith is Do with a context and extra headers.
func (s *Server) DoWith(t testing.TB, ctx context.Context, method, path, contentType, body string, header http.Header) Response {
	t.Helper()
	return s.DoAs(t, s.admin, ctx, method, path, contentType, body, header)
}

// DoAs is DoWith through another client (AsUser).
func (s *Server) DoAs(t testing.TB, hc *http.Client, ctx context.Context, method, path, contentType, body string, header http.Header) Response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = bytes.NewBufferString(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, rd)
	require.NoError(t, err)
	if body != "" {
		if contentType == "" {
			contentType = "application/json"
		}
		if contentType != "none" {
			req.Header.Set("Content-Type", contentType)
		}
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	resp, err := hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return Response{Code: resp.StatusCode, Header: resp.Header, Body: string(data)}
}

// Get walks a decoded JSON object by path.
func Get(m map[string]any, path ...string) any {
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

// ConfigMapJSON is a ConfigMap manifest.
func ConfigMapJSON(name string, data map[string]string) string {
	b, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}, "data": data})
	return string(b)
}

// ReplicaSetJSON is a ReplicaSet manifest selecting app=web.
func ReplicaSetJSON(name string, replicas int) string {
	return fmt.Sprintf(`{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":%q},
		"spec":{"replicas":%d,"selector":{"matchLabels":{"app":"web"}},
		"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`, name, replicas)
}

// PodJSON is a one-container Pod manifest labelled app=web.
func PodJSON(name string) string {
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":%q,"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`, name)
}

// EtcdRevision is etcd's current revision. Every write to etcd moves it,
// so a test that must prove nothing was written (a dry run, a refused
// request) compares it before and after.
func (s *Server) EtcdRevision(t testing.TB) int64 {
	t.Helper()
	resp, err := s.Etcd.Client().Get(context.Background(), "/registry/", clientv3.WithCountOnly())
	require.NoError(t, err)
	return resp.Header.Revision
}

// Stored reads one object straight from etcd, past the apiserver and its
// watch cache.
func (s *Server) Stored(t testing.TB, group, resource, namespace, name string) (api.Object, error) {
	t.Helper()
	info, ok := api.Builtin().ForResource(group, resource)
	require.True(t, ok, "no resource %s in group %q", resource, group)
	return store.New(s.Etcd.Client(), info).Get(context.Background(), info.Key(namespace, name), store.GetOptions{})
}
