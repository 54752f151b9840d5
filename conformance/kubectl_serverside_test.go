package conformance

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

const ssaV1 = `apiVersion: v1
kind: ConfigMap
metadata:
  name: ssa
data:
  a: "1"
  b: "1"
`

const ssaOther = `apiVersion: v1
kind: ConfigMap
metadata:
  name: ssa
data:
  a: "2"
`

// ssaV2 drops b and adds c.
const ssaV2 = `apiVersion: v1
kind: ConfigMap
metadata:
  name: ssa
data:
  a: "1"
  c: "3"
`

// TestKubectlServerSideApply drives every real kubectl through server-side
// apply: apply --server-side creates and updates, a second field manager
// conflicts until --force-conflicts, diff --server-side previews, and get
// --show-managed-fields shows the ownership Kubernetes would record.
func TestKubectlServerSideApply(t *testing.T) {
	for _, bin := range requireKubectls(t) {
		t.Run(bin.version, func(t *testing.T) {
			k := &kubectl{t: t, bin: bin, namespace: newNamespace(t)}
			v1, other, v2 := writeFile(t, "ssa-v1.yaml", ssaV1), writeFile(t, "ssa-other.yaml", ssaOther), writeFile(t, "ssa-v2.yaml", ssaV2)

			assert.Contains(t, k.ok("apply", "--server-side", "-f", v1), "configmap/ssa serverside-applied")
			assert.Equal(t, map[string]string{"kubectl/Apply/": `{"f:data":{"f:a":{},"f:b":{}}}`}, kubectlManaged(t, k, "cm", "ssa"))
			assert.NotContains(t, k.ok("get", "cm", "ssa", "-o", "yaml"), "managedFields", "hidden unless asked for")

			out := k.fails("apply", "--server-side", "--field-manager=other", "-f", other)
			assert.Contains(t, out, `error: Apply failed with 1 conflict: conflict with "kubectl": .data.a`)
			assert.Contains(t, out, "--force-conflicts")

			assert.Contains(t, k.ok("apply", "--server-side", "--field-manager=other", "--force-conflicts", "-f", other), "configmap/ssa serverside-applied")
			assert.Equal(t, map[string]string{
				"kubectl/Apply/": `{"f:data":{"f:b":{}}}`,
				"other/Apply/":   `{"f:data":{"f:a":{}}}`,
			}, kubectlManaged(t, k, "cm", "ssa"))

			// kubectl's v2 sets a back to 1: a conflict with other, which the
			// diff has to force too to preview.
			r := k.run("diff", "--server-side", "--force-conflicts", "-f", v2)
			require.Equal(t, 1, r.code, "differences: exit 1\n%s", r.out())
			assert.Contains(t, r.stdout, `-  b: "1"`, "b is no longer applied by anyone: it goes")
			assert.Contains(t, r.stdout, `+  c: "3"`)
			assert.Contains(t, r.stdout, `+  a: "1"`)
			assert.Contains(t, k.ok("get", "cm", "ssa", "-o", "jsonpath={.data}"), `"b":"1"`, "a diff stores nothing")

			k.ok("apply", "--server-side", "--force-conflicts", "-f", v2)
			assert.Equal(t, `{"a":"1","c":"3"}`, k.ok("get", "cm", "ssa", "-o", "jsonpath={.data}"))
			assert.Equal(t, map[string]string{"kubectl/Apply/": `{"f:data":{"f:a":{},"f:c":{}}}`}, kubectlManaged(t, k, "cm", "ssa"),
				"other lost its only field and its entry")

			r = k.run("diff", "--server-side", "-f", v2)
			require.Equal(t, 0, r.code, "no differences: exit 0\n%s", r.out())
		})
	}
}

// kubectlManaged reads an object's managedFields through kubectl get
// --show-managed-fields.
func kubectlManaged(t *testing.T, k *kubectl, resource, name string) map[string]string {
	t.Helper()
	var obj corev1.ConfigMap // any kind: only metadata is read
	require.NoError(t, json.Unmarshal([]byte(k.ok("get", resource, name, "-o", "json", "--show-managed-fields")), &obj))
	return entriesOf(t, obj.ManagedFields)
}
