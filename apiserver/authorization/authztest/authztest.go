// Package authztest starts a real apiserver in Node,RBAC mode, with the
// ServiceAccount and NodeRestriction admission plugins, for the
// tests of authorization: a real embedded etcd, the whole server, and an
// HTTP server on 127.0.0.1 whose requests say who they come from.
//
// Who a request comes from is the authentication filter's business; these
// tests are about what happens after it, so the test server puts the user
// named by the X-Test-User and X-Test-Group headers into the request's
// context before the apiserver's handler runs, as the authentication
// filter would (every user also gets system:authenticated). A request
// without X-Test-User is system:admin in system:masters.
package authztest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/apiserver"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/apiservertest"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/store"
	"kubeloop/store/storetest"
)

// Server is an apiserver with RBAC on a real etcd. Its Do, Stored and
// NewNamespace (apiservertest's) act as system:admin.
type Server struct {
	*apiservertest.Server
}

// Main is a TestMain body: etcd, one RBAC apiserver, the package's tests.
func Main(m *testing.M, setup func(*Server)) {
	storetest.Main(m, func(e *store.Embedded) {
		s, err := apiserver.New(apiserver.Config{
			Etcd:               e.Client(),
			Logger:             slog.New(slog.DiscardHandler),
			AuthorizationModes: []string{apiserver.ModeNode, apiserver.ModeRBAC},
			EnableAdmissionPlugins: []string{
				admission.PluginServiceAccount, admission.PluginNodeRestriction,
			},
		})
		if err != nil {
			panic(err)
		}
		hs := httptest.NewServer(WithTestUser(s.Handler()))
		setup(&Server{&apiservertest.Server{Etcd: e, API: s, URL: hs.URL}})
	})
}

// WithTestUser puts the user of the X-Test-User and X-Test-Group headers
// in the request's context.
func WithTestUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := &user.Info{Name: "system:admin", Groups: []string{user.SystemPrivilegedGroup, user.AllAuthenticated}}
		if name := r.Header.Get("X-Test-User"); name != "" {
			u = &user.Info{Name: name}
			for _, g := range r.Header.Values("X-Test-Group") {
				u.Groups = append(u.Groups, g)
			}
			u.Groups = append(u.Groups, user.AllAuthenticated)
		}
		next.ServeHTTP(w, r.WithContext(user.WithUser(r.Context(), u)))
	})
}

// Response is a finished exchange.
type Response = apiservertest.Response

// Admin sends a request as system:admin.
func (s *Server) Admin(t testing.TB, method, path, body string) Response {
	t.Helper()
	return s.As(t, "", nil, method, path, body)
}

// As sends a request as the user name in groups (plus
// system:authenticated); an empty name is system:admin.
func (s *Server) As(t testing.TB, name string, groups []string, method, path, body string) Response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, s.URL+path, rd)
	require.NoError(t, err)
	if body != "" {
		ct := "application/json"
		if method == "PATCH" {
			ct = "application/merge-patch+json"
		}
		req.Header.Set("Content-Type", ct)
	}
	if name != "" {
		req.Header.Set("X-Test-User", name)
		for _, g := range groups {
			req.Header.Add("X-Test-Group", g)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return Response{Code: resp.StatusCode, Header: resp.Header, Body: string(b)}
}
