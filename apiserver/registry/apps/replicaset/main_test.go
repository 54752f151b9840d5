package replicaset_test

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

func newNamespace(t *testing.T) string {
	t.Helper()
	return srv.NewNamespace(t)
}

func do(t *testing.T, method, path, contentType, body string) response {
	t.Helper()
	return srv.Do(t, method, path, contentType, body)
}

func get(m map[string]any, path ...string) any { return apiservertest.Get(m, path...) }

func rsJSON(name string, replicas int) string { return apiservertest.ReplicaSetJSON(name, replicas) }

const (
	mergePatchType = "application/merge-patch+json"
	applyPatchType = "application/apply-patch+yaml"
)
