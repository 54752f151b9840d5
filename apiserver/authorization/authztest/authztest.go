// Package authztest starts a real apiserver in Node,RBAC mode, with the
// ServiceAccount and NodeRestriction admission plugins, for the
// tests of authorization: a real embedded etcd, the whole server, and an
// HTTPS server on 127.0.0.1 (apiservertest's).
//
// Who a request comes from is decided as in production, by the
// authentication filter: As sends the request with a client certificate
// naming the user (CN) and groups (O), issued by the test server's CA;
// authentication adds system:authenticated. Admin and Do act as the
// cluster admin (kubernetes-admin in system:masters).
package authztest

import (
	"context"
	"net/http"
	"testing"

	"kubeloop/apiserver"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/apiservertest"
)

// Server is an apiserver with RBAC on a real etcd. Its Do, Stored and
// NewNamespace (apiservertest's) act as the admin.
type Server struct {
	*apiservertest.Server
}

// Main is a TestMain body: etcd, one RBAC apiserver, the package's tests.
func Main(m *testing.M, setup func(*Server)) {
	apiservertest.MainWith(m, apiserver.Config{
		AuthorizationModes: []string{apiserver.ModeNode, apiserver.ModeRBAC},
		EnableAdmissionPlugins: []string{
			admission.PluginServiceAccount, admission.PluginNodeRestriction,
		},
	}, func(s *apiservertest.Server) { setup(&Server{s}) })
}

// Response is a finished exchange.
type Response = apiservertest.Response

// Admin sends a request as the admin.
func (s *Server) Admin(t testing.TB, method, path, body string) Response {
	t.Helper()
	return s.As(t, "", nil, method, path, body)
}

// As sends a request as the user name in groups (plus
// system:authenticated); an empty name is the admin.
func (s *Server) As(t testing.TB, name string, groups []string, method, path, body string) Response {
	t.Helper()
	hc := s.HTTPClient()
	if name != "" {
		hc = s.AsUser(t, name, groups...)
	}
	ct := ""
	if method == http.MethodPatch {
		ct = "application/merge-patch+json"
	}
	return s.DoAs(t, hc, context.Background(), method, path, ct, body, nil)
}
