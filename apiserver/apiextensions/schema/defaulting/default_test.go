package defaulting

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

const defaultsSchema = `{"type":"object","properties":{"spec":{"type":"object","properties":{
	"image":{"type":"string","default":"busybox"},
	"replicas":{"type":"integer","default":1},
	"nullable":{"type":"string","nullable":true,"default":"x"},
	"strategy":{"type":"object","default":{},"properties":{
		"type":{"type":"string","default":"RollingUpdate"},
		"rolling":{"type":"object","default":{"maxSurge":"25%"},"properties":{
			"maxSurge":{"type":"string"},"maxUnavailable":{"type":"string","default":"25%"}}}}},
	"ports":{"type":"array","items":{"type":"object","default":{"port":80},"properties":{
		"port":{"type":"integer"},"protocol":{"type":"string","default":"TCP"}}}},
	"labels":{"type":"object","additionalProperties":{"type":"string","default":"on"}},
	"plain":{"type":"string"}}}}}`

func TestDefaultAppliesDefaultsAsKubernetesDoes(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"absent fields get defaults, nested ones too",
			`{"spec":{}}`,
			`{"spec":{"image":"busybox","replicas":1,"nullable":"x",
				"strategy":{"type":"RollingUpdate","rolling":{"maxSurge":"25%","maxUnavailable":"25%"}}}}`},
		{"set fields keep their values",
			`{"spec":{"image":"nginx","replicas":3,"strategy":{"type":"Recreate","rolling":{"maxSurge":"1"}}}}`,
			`{"spec":{"image":"nginx","replicas":3,"nullable":"x",
				"strategy":{"type":"Recreate","rolling":{"maxSurge":"1","maxUnavailable":"25%"}}}}`},
		{"null is defaulted where not nullable, kept where nullable",
			`{"spec":{"image":null,"nullable":null}}`,
			`{"spec":{"image":"busybox","replicas":1,"nullable":null,
				"strategy":{"type":"RollingUpdate","rolling":{"maxSurge":"25%","maxUnavailable":"25%"}}}}`},
		{"list elements: null defaulted, fields of each filled",
			`{"spec":{"ports":[null,{"port":443}]}}`,
			`{"spec":{"image":"busybox","replicas":1,"nullable":"x",
				"strategy":{"type":"RollingUpdate","rolling":{"maxSurge":"25%","maxUnavailable":"25%"}},
				"ports":[{"port":80,"protocol":"TCP"},{"port":443,"protocol":"TCP"}]}}`},
		{"map values: null defaulted",
			`{"spec":{"labels":{"a":null,"b":"off"}}}`,
			`{"spec":{"image":"busybox","replicas":1,"nullable":"x",
				"strategy":{"type":"RollingUpdate","rolling":{"maxSurge":"25%","maxUnavailable":"25%"}},
				"labels":{"a":"on","b":"off"}}}`},
		{"no spec, no defaults below it", `{}`, `{}`},
	}
	s := structural(t, defaultsSchema)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj := value(t, c.in)
			Default(obj, s)
			assert.Equal(t, value(t, c.want), obj)
		})
	}
}

func TestDefaultsAreCopiedNotShared(t *testing.T) {
	s := structural(t, defaultsSchema)
	a, b := value(t, `{"spec":{}}`), value(t, `{"spec":{}}`)
	Default(a, s)
	Default(b, s)
	a.(map[string]any)["spec"].(map[string]any)["strategy"].(map[string]any)["type"] = "changed"
	assert.Equal(t, "RollingUpdate", b.(map[string]any)["spec"].(map[string]any)["strategy"].(map[string]any)["type"])
	assert.Equal(t, map[string]any{}, s.Properties["spec"].Properties["strategy"].Default, "the schema's default is untouched")
}

func TestPruneNonNullableNullsWithoutDefaults(t *testing.T) {
	s := structural(t, defaultsSchema)
	obj := value(t, `{"spec":{"plain":null,"image":null,"nullable":null,"unknown":null,"ports":[{"protocol":null,"port":null}]}}`)
	PruneNonNullableNullsWithoutDefaults(obj, s)
	assert.Equal(t, value(t, `{"spec":{"image":null,"nullable":null,"unknown":null,"ports":[{"protocol":null}]}}`), obj)
}

func TestValidateDefaults(t *testing.T) {
	const p = "spec.versions[0].schema.openAPIV3Schema"
	cases := []struct {
		name, schema string
		want         []string
	}{
		{"valid defaults", defaultsSchema, nil},
		{"a default of the wrong type", `{"type":"object","properties":{"a":{"type":"integer","default":"x"}}}`,
			[]string{p + `.properties[a].default: Invalid value: "string":  in body must be of type integer: "string"`}},
		{"a default out of bounds", `{"type":"object","properties":{"a":{"type":"integer","minimum":1,"default":0}}}`,
			[]string{p + `.properties[a].default: Invalid value: 0:  in body should be greater than or equal to 1`}},
		{"a default with unknown fields", `{"type":"object","properties":{"a":{"type":"object","default":{"b":1,"c":2},"properties":{"b":{"type":"integer"}}}}}`,
			[]string{p + `.properties[a].default: Invalid value: {"b":1,"c":2}: must not have unknown fields`}},
		{"a default violating a nested rule", `{"type":"object","properties":{"a":{"type":"object","default":{"b":"toolong"},"properties":{"b":{"type":"string","maxLength":3}}}}}`,
			[]string{p + `.properties[a].default.b: Too long: may not be more than 3 bytes`}},
		{"a list item default", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","enum":["x"],"default":"y"}}}}`,
			[]string{p + `.properties[a].items.default: Unsupported value: "y": supported values: "x"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, e := range ValidateDefaults(p, structural(t, c.schema), true) {
				got = append(got, e.Error())
			}
			assert.Equal(t, c.want, got)
		})
	}
}

func TestValidateDefaultsRunsTheRules(t *testing.T) {
	s := structural(t, `{"type":"object","properties":{"a":{"type":"object","default":{"min":5,"max":1},
		"x-kubernetes-validations":[{"rule":"self.min <= self.max","message":"min above max"}],
		"properties":{"min":{"type":"integer"},"max":{"type":"integer"}}}}}`)
	var got []string
	for _, e := range ValidateDefaults("p", s, true) {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{"p.properties[a].default: Invalid value: min above max"}, got)
}
