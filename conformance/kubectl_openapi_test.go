package conformance

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// TestKubectlExplainAndValidation drives every real kubectl through what
// it reads the OpenAPI documents for: explain (v3 by default, v2 on
// request) and create/apply with validation.
func TestKubectlExplainAndValidation(t *testing.T) {
	for _, bin := range requireKubectls(t) {
		t.Run(bin.version, func(t *testing.T) {
			k := &kubectl{t: t, bin: bin, namespace: newNamespace(t)}
			t.Run("explain-v3", func(t *testing.T) { kubectlExplainV3(t, k) })
			t.Run("explain-v2", func(t *testing.T) { kubectlExplainV2(t, k) })
			t.Run("explain-errors", func(t *testing.T) { kubectlExplainErrors(t, k) })
			t.Run("validate", func(t *testing.T) { kubectlValidate(t, k) })
		})
	}
}

// firstWords is the start of a description, short enough that kubectl's
// wrapping at 76 columns cannot split it.
func firstWords(s string, n int) string {
	w := strings.Fields(s)
	if len(w) > n {
		w = w[:n]
	}
	return strings.Join(w, " ")
}

func kubectlExplainV3(t *testing.T, k *kubectl) {
	out := k.ok("explain", "pods.spec.containers")
	assert.Contains(t, out, "KIND:       Pod")
	assert.Contains(t, out, "VERSION:    v1")
	assert.Contains(t, out, "FIELD: containers <[]Container>")
	assert.Contains(t, out, firstWords(api.Description("Container", ""), 5), "the type's description, from our comments")
	assert.Regexp(t, `(?m)^  name\t<string> -required-$`, out)
	assert.Regexp(t, `(?m)^  ports\t<\[\]ContainerPort>$`, out)
	assert.Regexp(t, `(?m)^  resources\t<ResourceRequirements>$`, out)
	if d := api.Description("Container", "Image"); d != "" {
		assert.Contains(t, out, firstWords(d, 5), "a field's description")
	}

	rs := k.ok("explain", "rs.spec.template.spec.containers.ports")
	assert.Contains(t, rs, "GROUP:      apps")
	assert.Contains(t, rs, "KIND:       ReplicaSet")
	assert.Regexp(t, `(?m)^  containerPort\t<integer> -required-$`, rs)

	pod := k.ok("explain", "pod")
	assert.Contains(t, pod, firstWords(api.Description("Pod", ""), 5))
	for _, f := range []string{"apiVersion\t<string>", "metadata\t<ObjectMeta>", "spec\t<PodSpec>", "status\t<PodStatus>"} {
		assert.Contains(t, pod, "  "+f)
	}
	assert.Regexp(t, `(?m)^  creationTimestamp\t<string>$`, k.ok("explain", "pod.metadata"), "Time is a date-time string")
}

func kubectlExplainV2(t *testing.T, k *kubectl) {
	out := k.ok("explain", "pods.spec.containers", "--output", "plaintext-openapiv2")
	assert.Contains(t, out, "RESOURCE: containers <[]Object>")
	assert.Contains(t, out, firstWords(api.Description("Container", ""), 5))
	assert.Regexp(t, `(?m)^   name\t<string> -required-$`, out)
	assert.Regexp(t, `(?m)^   ports\t<\[\]Object>$`, out)

	lease := k.ok("explain", "leases.spec", "--output", "plaintext-openapiv2")
	assert.Contains(t, lease, "KIND:     Lease")
	assert.Regexp(t, `(?m)^   renewTime\t<string>$`, lease)
}

func kubectlExplainErrors(t *testing.T, k *kubectl) {
	assert.Contains(t, k.fails("explain", "statefulset"), `the server doesn't have a resource type "statefulset"`)
	assert.Contains(t, k.fails("explain", "pods.spec.nope"), `field "nope" does not exist`)
	assert.Contains(t, k.fails("explain", "pods.spec.nope", "--output", "plaintext-openapiv2"), `field "nope" does not exist`)
}

const validManifests = `apiVersion: v1
kind: ConfigMap
metadata: {name: valid}
data: {a: "1"}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: valid}
spec:
  replicas: 0
  selector: {matchLabels: {app: valid}}
  template:
    metadata: {labels: {app: valid}}
    spec:
      containers:
      - name: c
        image: busybox
        ports: [{containerPort: 80, protocol: TCP}]
        resources: {limits: {cpu: 100m, memory: 64Mi}}
        livenessProbe: {httpGet: {port: http, path: /}}
      volumes: [{name: scratch, emptyDir: {}}]
`

const unknownFields = `apiVersion: v1
kind: ConfigMap
metadata: {name: invalid, bogus: 1}
dta: {a: "1"}
`

func kubectlValidate(t *testing.T, k *kubectl) {
	good, bad := writeFile(t, "valid.yaml", validManifests), writeFile(t, "invalid.yaml", unknownFields)
	for _, mode := range []string{"true", "strict"} {
		out := k.ok("create", "--validate="+mode, "-f", good)
		assert.Contains(t, out, "configmap/valid created", mode)
		assert.Contains(t, out, "replicaset.apps/valid created", mode)
		k.ok("delete", "-f", good)

		for _, verb := range []string{"create", "apply"} {
			r := k.run(verb, "--validate="+mode, "-f", bad)
			require.Equal(t, 1, r.code, "%s --validate=%s: %s", verb, mode, r.out())
			assert.Contains(t, r.stderr, `unknown field "dta"`, "%s --validate=%s", verb, mode)
			assert.Contains(t, r.stderr, `unknown field "metadata.bogus"`, "%s --validate=%s", verb, mode)
		}
		assert.Contains(t, k.ok("apply", "--validate="+mode, "-f", good), "replicaset.apps/valid created", mode)
		k.ok("delete", "-f", good)
	}
	assert.Contains(t, k.ok("create", "--validate=false", "-f", bad), "configmap/invalid created", "unknown fields are dropped when nobody validates")
}
