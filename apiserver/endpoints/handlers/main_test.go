package handlers_test

import (
	"bytes"
	"io"
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

func cmJSON(name string, data map[string]string) string {
	return apiservertest.ConfigMapJSON(name, data)
}

func rsJSON(name string, replicas int) string { return apiservertest.ReplicaSetJSON(name, replicas) }

func podJSON(name string) string { return apiservertest.PodJSON(name) }

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

const (
	mergePatchType     = "application/merge-patch+json"
	jsonPatchType      = "application/json-patch+json"
	strategicPatchType = "application/strategic-merge-patch+json"
	applyPatchType     = "application/apply-patch+yaml"
)
