package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Reading path, step 1 (docs/reading-path.md): the shape of every object.
// A pod as kubectl sends it decodes into metadata + spec + status, and the
// registry maps its kind to the URL resource, the etcd key and the Go type
// every generic piece below is driven by. Break in Decode and in
// Registry.ForKind.
func TestReadingPathStep1ObjectShape(t *testing.T) {
	wire := `{"apiVersion":"v1","kind":"Pod",
		"metadata":{"name":"web-1","namespace":"default","labels":{"app":"web"}},
		"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]},
		"status":{"phase":"Running"}}`
	var pod Pod
	require.NoError(t, Decode([]byte(wire), &pod))

	// metadata: who the object is; spec: what you want; status: what was seen.
	assert.Equal(t, "web-1", pod.Name)
	assert.Equal(t, map[string]string{"app": "web"}, pod.Labels)
	require.Len(t, pod.Spec.Containers, 1)
	assert.Equal(t, "nginx:1.27", pod.Spec.Containers[0].Image)
	assert.Equal(t, PodPhase("Running"), pod.Status.Phase)

	info, ok := Builtin().ForKind("", "Pod")
	require.True(t, ok)
	assert.Equal(t, "pods", info.Resource)
	assert.True(t, info.Namespaced)
	assert.True(t, info.HasStatus, "pods have a status subresource: spec and status are written apart")
	assert.Equal(t, "/registry/core/pods/default/web-1", info.Key("default", "web-1"))
	_, isPod := info.New().(*Pod)
	assert.True(t, isPod)

	// The wire form round-trips to Kubernetes' JSON field names.
	out, err := Encode(&pod)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"containers":[{"name":"nginx","image":"nginx:1.27"`)
}
