package rbac_test

import (
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

func do(t *testing.T, method, path, body string) response {
	t.Helper()
	return srv.Do(t, method, path, "", body)
}

const group = "/apis/rbac.authorization.k8s.io/v1"
