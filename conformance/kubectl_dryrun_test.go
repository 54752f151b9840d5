package conformance

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const dryRunV1 = `apiVersion: v1
kind: ConfigMap
metadata:
  name: dry
data:
  a: "1"
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: dry-rs
spec:
  replicas: 0
  selector:
    matchLabels: {app: dry}
  template:
    metadata:
      labels: {app: dry}
    spec:
      containers:
      - name: c
        image: nginx:1
`

const dryRunV2 = `apiVersion: v1
kind: ConfigMap
metadata:
  name: dry
data:
  a: "2"
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: dry-rs
spec:
  replicas: 0
  selector:
    matchLabels: {app: dry}
  template:
    metadata:
      labels: {app: dry}
    spec:
      containers:
      - name: c
        image: nginx:2
`

// kubectlDryRun: `kubectl apply --dry-run=server` and `kubectl diff` send
// their writes with dryRun=All; the server runs them through admission
// and validation, answers what it would store, and stores nothing.
func kubectlDryRun(t *testing.T, k *kubectl) {
	v1, v2 := writeFile(t, "dry-v1.yaml", dryRunV1), writeFile(t, "dry-v2.yaml", dryRunV2)

	out := k.ok("apply", "--dry-run=server", "-f", v1)
	assert.Contains(t, out, "configmap/dry created (server dry run)")
	assert.Contains(t, out, "replicaset.apps/dry-rs created (server dry run)")
	assert.Contains(t, k.fails("get", "cm", "dry"), `configmaps "dry" not found`)

	// Against nothing stored, the diff is the whole object: exit code 1.
	r := k.run("diff", "-f", v1)
	require.Equal(t, 1, r.code, "kubectl diff exits 1 when there are differences\n%s", r.out())
	assert.Contains(t, r.stdout, "+  name: dry")
	assert.Contains(t, r.stdout, `+  a: "1"`)
	k.fails("get", "cm", "dry")

	assert.Contains(t, k.ok("apply", "-f", v1), "configmap/dry created")
	r = k.run("diff", "-f", v1)
	require.Equal(t, 0, r.code, "no differences: exit 0\n%s", r.out())
	assert.Empty(t, r.stdout)

	// A change: the diff shows it as the server would store it, a dry-run
	// apply reports it, and the stored objects keep the old values.
	r = k.run("diff", "-f", v2)
	require.Equal(t, 1, r.code, r.out())
	assert.Contains(t, r.stdout, `-  a: "1"`)
	assert.Contains(t, r.stdout, `+  a: "2"`)
	assert.Contains(t, r.stdout, `+      - image: nginx:2`)
	assert.Contains(t, r.stdout, "+  generation: 2", "the server bumped generation for the new spec")
	out = k.ok("apply", "--dry-run=server", "-f", v2)
	assert.Contains(t, out, "configmap/dry configured (server dry run)")
	assert.Contains(t, out, "replicaset.apps/dry-rs configured (server dry run)")
	assert.Equal(t, "1", k.ok("get", "cm", "dry", "-o", "jsonpath={.data.a}"))
	assert.Equal(t, "nginx:1", k.ok("get", "rs", "dry-rs", "-o", "jsonpath={.spec.template.spec.containers[0].image}"))

	// Validation runs for dry runs: an invalid change is refused.
	r = k.stdin("apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: dry-rs\nspec:\n  replicas: -1\n", "apply", "--dry-run=server", "-f", "-")
	require.Equal(t, 1, r.code, r.out())
	assert.Contains(t, r.stderr, "spec.replicas")

	assert.Contains(t, k.ok("delete", "cm", "dry", "--dry-run=server"), `configmap "dry" deleted (server dry run)`)
	assert.Equal(t, "1", k.ok("get", "cm", "dry", "-o", "jsonpath={.data.a}"))
	k.ok("delete", "-f", v1)
}
