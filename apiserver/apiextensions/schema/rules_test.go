package schema

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/field"
)

// mustStructural reads a schema written as JSON, as a CRD carries it.
func mustStructural(t testing.TB, schemaJSON string) *Structural {
	t.Helper()
	var props api.JSONSchemaProps
	require.NoError(t, json.Unmarshal([]byte(schemaJSON), &props))
	s, err := NewStructural(&props)
	require.NoError(t, err)
	return s
}

func errorStrings(errs field.ErrorList) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func TestValidateStructuralRules(t *testing.T) {
	const p = "spec.versions[0].schema.openAPIV3Schema"
	cases := []struct {
		name   string
		schema string
		want   []string
	}{
		{"a valid schema", `{"type":"object","properties":{"spec":{"type":"object","properties":{
			"replicas":{"type":"integer","minimum":1},
			"port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},
			"any":{"x-kubernetes-preserve-unknown-fields":true},
			"labels":{"type":"object","additionalProperties":{"type":"string"}},
			"list":{"type":"array","items":{"type":"string"}}}},
			"metadata":{"type":"object","properties":{"name":{"type":"string","maxLength":10}}}}}`, nil},
		{"the root without a type", `{"properties":{"a":{"type":"string"}}}`,
			[]string{p + ".type: Required value: must not be empty at the root"}},
		{"the root not an object", `{"type":"string"}`,
			[]string{p + `.type: Invalid value: "string": must be object at the root`}},
		{"a field without a type", `{"type":"object","properties":{"a":{"description":"x"}}}`,
			[]string{p + ".properties[a].type: Required value: must not be empty for specified object fields"}},
		{"items without a type", `{"type":"object","properties":{"a":{"type":"array","items":{}}}}`,
			[]string{p + ".properties[a].items.type: Required value: must not be empty for specified array items"}},
		{"an array without items", `{"type":"object","properties":{"a":{"type":"array"}}}`,
			[]string{p + ".properties[a].items: Required value: must be specified"}},
		{"additionalProperties at the root", `{"type":"object","additionalProperties":{"type":"string"}}`,
			[]string{p + ".additionalProperties: Forbidden: must not be used at the root"}},
		{"int-or-string that preserves", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"x-kubernetes-preserve-unknown-fields":true}}}`,
			[]string{p + ".properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true"}},
		{"an embedded resource of another type", `{"type":"object","properties":{"a":{"type":"string","x-kubernetes-embedded-resource":true}}}`,
			[]string{
				p + ".properties[a].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
				p + `.properties[a].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
			}},
		{"an embedded resource with nothing", `{"type":"object","properties":{"a":{"type":"object","x-kubernetes-embedded-resource":true}}}`,
			[]string{p + ".properties[a].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"}},
		{"kind not a string", `{"type":"object","properties":{"kind":{"type":"integer"}}}`,
			[]string{p + `.properties[kind].type: Invalid value: "integer": must be string`}},
		{"metadata restricted beyond the name", `{"type":"object","properties":{"metadata":{"type":"object","properties":{"labels":{"type":"object"}}}}}`,
			[]string{p + ".properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"}},
		{"metadata not an object", `{"type":"object","properties":{"metadata":{"type":"string"}}}`,
			[]string{p + `.properties[metadata].type: Invalid value: "string": must be object`}},
		{"a type in a junctor", `{"type":"object","properties":{"a":{"type":"string","anyOf":[{"type":"string"},{"maxLength":3}]}}}`,
			[]string{p + ".properties[a].anyOf[0].type: Forbidden: must be empty to be structural"}},
		{"a default in a junctor", `{"type":"object","properties":{"a":{"type":"string","oneOf":[{"default":"x"}]}}}`,
			[]string{p + ".properties[a].oneOf[0].default: Forbidden: must be undefined to be structural"}},
		{"metadata in a junctor", `{"type":"object","allOf":[{"properties":{"metadata":{}}}],"properties":{"metadata":{"type":"object"}}}`,
			[]string{p + ".allOf[0].properties[metadata]: Forbidden: must not be specified in a nested context"}},
		// Kubernetes checks completeness for the root's junctors only.
		{"a junctor names an unspecified property", `{"type":"object","not":{"properties":{"b":{"maxLength":1}}}}`,
			[]string{p + ".properties[b]: Required value: because it is defined in " + p + ".not.properties[b]"}},
		{"a nested junctor is not checked for completeness", `{"type":"object","properties":{"a":{"type":"object","not":{"properties":{"b":{"maxLength":1}}}}}}`, nil},
		{"a bad pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"("}}}`,
			[]string{p + `.properties[a].pattern: Invalid value: "(": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): ` + "`(`"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := errorStrings(ValidateStructural(field.Path(p), mustStructural(t, c.schema)))
			if c.want == nil {
				c.want = []string{}
			}
			assert.Equal(t, c.want, got)
		})
	}
}

func TestValidateStructuralReportsEveryProblemSorted(t *testing.T) {
	s := mustStructural(t, `{"properties":{"b":{},"a":{"type":"array"}}}`)
	assert.Equal(t, []string{
		"properties[a].items: Required value: must be specified",
		"properties[b].type: Required value: must not be empty for specified object fields",
		"type: Required value: must not be empty at the root",
	}, errorStrings(ValidateStructural("", s)))
}

func TestNewStructuralRefusesUnsupportedKeywords(t *testing.T) {
	for _, schema := range []string{
		`{"$ref":"#/x"}`, `{"id":"x"}`, `{"definitions":{}}`, `{"patternProperties":{}}`,
		`{"additionalItems":false}`, `{"dependencies":{}}`, `{"items":[{"type":"string"}]}`,
		`{"x-kubernetes-preserve-unknown-fields":false}`, `{"anyOf":[{"$ref":"#"}]}`,
	} {
		var props api.JSONSchemaProps
		require.NoError(t, json.Unmarshal([]byte(schema), &props))
		_, err := NewStructural(&props)
		assert.Error(t, err, schema)
	}
}

func TestDecodeJSONKeepsIntegersExact(t *testing.T) {
	v, err := DecodeJSON([]byte(`{"i":9007199254740993,"f":1.5,"e":1e3,"big":1e400}`))
	assert.Error(t, err, "1e400 is not a float64")
	v, err = DecodeJSON([]byte(`{"i":9007199254740993,"f":1.5,"e":1e3,"l":[1,"a",null,true]}`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"i": int64(9007199254740993), "f": 1.5, "e": 1000.0, "l": []any{int64(1), "a", nil, true}}, v)
	_, err = DecodeJSON([]byte(`{} {}`))
	assert.Error(t, err)
}
