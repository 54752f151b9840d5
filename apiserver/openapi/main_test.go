package openapi_test

import (
	"context"
	"net/http"
	"testing"

	"kubeloop/apiserver/apiservertest"
)

// One etcd and one apiserver for the whole package; every test works in
// its own namespace.
var srv *apiservertest.Server

func TestMain(m *testing.M) {
	apiservertest.Main(m, func(s *apiservertest.Server) { srv = s })
}

type response = apiservertest.Response

// doAccept is a GET with an Accept header.
func doAccept(t *testing.T, path, accept string) response {
	t.Helper()
	return srv.DoWith(t, context.Background(), http.MethodGet, path, "", "", http.Header{"Accept": {accept}})
}
