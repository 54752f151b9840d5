package pruning

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/schema"
)

func structural(t testing.TB, schemaJSON string) *schema.Structural {
	t.Helper()
	var props api.JSONSchemaProps
	require.NoError(t, json.Unmarshal([]byte(schemaJSON), &props))
	s, err := schema.NewStructural(&props)
	require.NoError(t, err)
	return s
}

func value(t testing.TB, j string) any {
	t.Helper()
	v, err := schema.DecodeJSON([]byte(j))
	require.NoError(t, err)
	return v
}

const pruneSchema = `{"type":"object","properties":{
	"spec":{"type":"object","properties":{
		"known":{"type":"string"},
		"list":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}}}},
		"map":{"type":"object","additionalProperties":{"type":"object","properties":{"v":{"type":"string"}}}},
		"free":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{
			"typed":{"type":"object","properties":{"x":{"type":"string"}}}}},
		"anything":{"x-kubernetes-preserve-unknown-fields":true},
		"template":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{
			"spec":{"type":"object","properties":{"y":{"type":"string"}}}}}}},
	"status":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}`

func TestPruneDropsUnknownFieldsAndReportsTheirPaths(t *testing.T) {
	s := structural(t, pruneSchema)
	obj := value(t, `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n"},
		"extra":1,
		"spec":{"known":"k","bogus":true,
			"list":[{"a":"x","b":"y"},{"c":{}}],
			"map":{"k1":{"v":"1","w":"2"}},
			"free":{"keep":"me","typed":{"x":"1","z":"2"}},
			"anything":{"deep":{"er":[1]}},
			"template":{"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"a":"b"}},"spec":{"y":"1","q":"2"},"other":3}},
		"status":{"ok":true,"why":"x"}}`)
	unknown := Prune(obj, s, true)
	assert.Equal(t, []string{
		"extra",
		"spec.bogus",
		"spec.free.typed.z",
		"spec.list[0].b",
		"spec.list[1].c",
		"spec.map.k1.w",
		"spec.template.other",
		"spec.template.spec.q",
		"status.why",
	}, unknown)
	assert.Equal(t, value(t, `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n"},
		"spec":{"known":"k",
			"list":[{"a":"x"},{}],
			"map":{"k1":{"v":"1"}},
			"free":{"keep":"me","typed":{"x":"1"}},
			"anything":{"deep":{"er":[1]}},
			"template":{"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"a":"b"}},"spec":{"y":"1"}}},
		"status":{"ok":true}}`), obj)
}

func TestPruneWithoutResourceRootDropsMetaFieldsSilently(t *testing.T) {
	s := structural(t, `{"type":"object","properties":{"a":{"type":"string"}}}`)
	obj := value(t, `{"a":"x","kind":"K","b":1}`)
	assert.Equal(t, []string{"b"}, Prune(obj, s, false))
	assert.Equal(t, value(t, `{"a":"x"}`), obj)
}

func TestPruneOfACleanObjectChangesNothing(t *testing.T) {
	s := structural(t, pruneSchema)
	in := `{"apiVersion":"g/v1","kind":"K","metadata":{},"spec":{"known":"k","list":[{"a":"x"}]}}`
	obj := value(t, in)
	assert.Empty(t, Prune(obj, s, true))
	assert.Equal(t, value(t, in), obj)
}
