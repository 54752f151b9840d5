package pruning

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCoerceEmbeddedMetadataKeepsOnlyObjectMeta(t *testing.T) {
	s := structural(t, pruneSchema)
	require.True(t, HasEmbeddedResource(s))
	assert.False(t, HasEmbeddedResource(structural(t, `{"type":"object","properties":{"a":{"type":"string"}}}`)))

	obj := value(t, `{"metadata":{"root":"is typed elsewhere"},"spec":{"template":{"apiVersion":"v1","kind":"Pod",
		"metadata":{"name":"p","generation":2,"labels":{"a":"b"},"foo":1,"bar":{}}}}}`)
	unknown, err := CoerceEmbeddedMetadata(obj, s)
	require.NoError(t, err)
	assert.Equal(t, []string{"spec.template.metadata.bar", "spec.template.metadata.foo"}, unknown)
	assert.Equal(t, value(t, `{"name":"p","generation":2,"labels":{"a":"b"}}`), obj.(map[string]any)["spec"].(map[string]any)["template"].(map[string]any)["metadata"])
	assert.Equal(t, value(t, `{"root":"is typed elsewhere"}`), obj.(map[string]any)["metadata"], "the root's metadata is not an embedded resource's")

	_, err = CoerceEmbeddedMetadata(value(t, `{"spec":{"template":{"metadata":{"labels":5}}}}`), s)
	assert.ErrorContains(t, err, "spec.template.metadata: Invalid value: ")
}
