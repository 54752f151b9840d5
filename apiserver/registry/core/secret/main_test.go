package secret_test

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

func do(t *testing.T, method, path, contentType, body string) response {
	t.Helper()
	return srv.Do(t, method, path, contentType, body)
}

func get(m map[string]any, path ...string) any { return apiservertest.Get(m, path...) }

func secretsPath(t *testing.T) string {
	return "/api/v1/namespaces/" + srv.NewNamespace(t) + "/secrets"
}

const mergePatch = "application/merge-patch+json"

func causes(t *testing.T, r response) map[string]string {
	t.Helper()
	out := map[string]string{}
	cs, _ := get(r.Obj(t), "details", "causes").([]any)
	for _, c := range cs {
		m := c.(map[string]any)
		out[m["field"].(string)] = m["message"].(string)
	}
	return out
}
