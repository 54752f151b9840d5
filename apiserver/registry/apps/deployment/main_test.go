package deployment_test

import (
	"fmt"
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

// deploymentsPath is the collection URL of a fresh namespace.
func deploymentsPath(t *testing.T) string {
	return "/apis/apps/v1/namespaces/" + srv.NewNamespace(t) + "/deployments"
}

// deploymentJSON is a Deployment selecting app=web; spec is extra spec
// fields, such as `"replicas":2,`.
func deploymentJSON(name, spec string) string {
	return fmt.Sprintf(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":%q},
		"spec":{%s"selector":{"matchLabels":{"app":"web"}},
		"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.27"}]}}}}`, name, spec)
}

const mergePatch = "application/merge-patch+json"

// causes are the field and message of each cause of a 422.
func causes(t *testing.T, r response) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, c := range get(r.Obj(t), "details", "causes").([]any) {
		m := c.(map[string]any)
		out[m["field"].(string)] = m["message"].(string)
	}
	return out
}
