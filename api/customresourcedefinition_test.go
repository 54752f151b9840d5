package api

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

func crdFixtureJSON(t *testing.T) []byte {
	t.Helper()
	y, err := os.ReadFile("testdata/apiextensions/customresourcedefinition.yaml")
	require.NoError(t, err)
	j, err := yaml.YAMLToJSON(y)
	require.NoError(t, err)
	return j
}

func TestCustomResourceDefinitionDecodesStrictlyWithEveryShape(t *testing.T) {
	var crd CustomResourceDefinition
	unknown, dups, err := DecodeStrict(crdFixtureJSON(t), &crd)
	require.NoError(t, err)
	assert.Empty(t, unknown)
	assert.Empty(t, dups)

	assert.Equal(t, "crontabs.stable.example.com", crd.Name)
	assert.Equal(t, NamespaceScoped, crd.Spec.Scope)
	v := crd.Spec.Versions[0]
	require.NotNil(t, v.Subresources.Status)
	assert.Equal(t, ".status.labelSelector", *v.Subresources.Scale.LabelSelectorPath)
	s := v.Schema.OpenAPIV3Schema
	require.Len(t, s.XValidations, 1)
	assert.Equal(t, FieldValueForbidden, *s.XValidations[0].Reason)
	spec := s.Properties["spec"]
	assert.JSONEq(t, `"busybox"`, string(spec.Properties["image"].Default.Raw))
	require.Len(t, spec.Properties["color"].Enum, 2)
	assert.JSONEq(t, `"green"`, string(spec.Properties["color"].Enum[1].Raw))
	assert.Equal(t, 10.5, *spec.Properties["replicas"].Maximum)
	assert.Equal(t, "string", spec.Properties["labels"].AdditionalProperties.Schema.Type)
	assert.True(t, spec.Properties["labels"].AdditionalProperties.Allows)
	assert.True(t, spec.Properties["anything"].AdditionalProperties.Allows)
	assert.Nil(t, spec.Properties["anything"].AdditionalProperties.Schema)
	assert.Equal(t, "object", spec.Properties["ports"].Items.Schema.Type)
	assert.Len(t, spec.Properties["tuple"].Items.JSONSchemas, 2)
	assert.Equal(t, []string{"b", "c"}, spec.Properties["deps"].Dependencies["a"].Property)
	assert.Equal(t, []string{"e"}, spec.Properties["deps"].Dependencies["d"].Schema.Required)
	assert.True(t, *spec.Properties["template"].XPreserveUnknownFields)
	assert.Equal(t, CRDEstablished, crd.Status.Conditions[0].Type)
}

func TestCustomResourceDefinitionJSONRoundTripsUnchanged(t *testing.T) {
	in := crdFixtureJSON(t)
	var crd CustomResourceDefinition
	require.NoError(t, Decode(in, &crd))
	out, err := Encode(&crd)
	require.NoError(t, err)
	assert.JSONEq(t, string(in), string(out))

	// A deep copy writes the same bytes.
	again, err := Encode(crd.DeepCopy())
	require.NoError(t, err)
	assert.Equal(t, string(out), string(again))
}

func TestSchemaEitherOrTypesWriteKubernetesForms(t *testing.T) {
	schema := &JSONSchemaProps{Type: "string"}
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"OrBool false", JSONSchemaPropsOrBool{}, `false`},
		{"OrBool true", JSONSchemaPropsOrBool{Allows: true}, `true`},
		{"OrBool schema", JSONSchemaPropsOrBool{Allows: true, Schema: schema}, `{"type":"string"}`},
		{"OrArray none", JSONSchemaPropsOrArray{}, `null`},
		{"OrArray one", JSONSchemaPropsOrArray{Schema: schema}, `{"type":"string"}`},
		{"OrArray many", JSONSchemaPropsOrArray{JSONSchemas: []JSONSchemaProps{*schema}}, `[{"type":"string"}]`},
		{"OrStringArray none", JSONSchemaPropsOrStringArray{}, `null`},
		{"OrStringArray schema", JSONSchemaPropsOrStringArray{Schema: schema}, `{"type":"string"}`},
		{"OrStringArray names", JSONSchemaPropsOrStringArray{Property: []string{"a"}}, `["a"]`},
		{"JSON empty", JSON{}, `null`},
		{"JSON object", JSON{Raw: []byte(`{"a": [1, 2]}`)}, `{"a":[1,2]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(c.v)
			require.NoError(t, err)
			assert.Equal(t, c.want, string(b))
		})
	}
}

func TestSchemaEitherOrTypesReadKubernetesForms(t *testing.T) {
	var b JSONSchemaPropsOrBool
	require.NoError(t, json.Unmarshal([]byte(`{}`), &b))
	assert.Equal(t, JSONSchemaPropsOrBool{Allows: true, Schema: &JSONSchemaProps{}}, b)
	require.NoError(t, json.Unmarshal([]byte(`false`), &b))
	assert.Equal(t, JSONSchemaPropsOrBool{}, b)
	assert.EqualError(t, json.Unmarshal([]byte(`"yes"`), &b), "boolean or JSON schema expected")

	var j JSON
	require.NoError(t, json.Unmarshal([]byte(`null`), &j))
	assert.Nil(t, j.Raw, "null is an empty JSON, not the text null")
	var p JSONSchemaProps
	require.NoError(t, json.Unmarshal([]byte(`{"default":null,"enum":[null,1]}`), &p))
	assert.Nil(t, p.Default)
	require.Len(t, p.Enum, 2)
	assert.Nil(t, p.Enum[0].Raw)
	assert.Equal(t, "1", string(p.Enum[1].Raw))
}

func TestDecodeStrictReportsUnknownSchemaKeywordsByPath(t *testing.T) {
	body := `{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{
		"type":"object","bogus":1,
		"properties":{"a":{"type":"array","items":{"type":"string","typo":true}}},
		"additionalProperties":{"type":"string","x-kubernetes-nope":1},
		"default":{"anything":{"goes":"here"}},
		"dependencies":{"d":{"type":"object","extra":[]},"e":["f"]},
		"x-kubernetes-validations":[{"rule":"true","mesage":"typo"}]}}}]}}`
	var crd CustomResourceDefinition
	unknown, _, err := DecodeStrict([]byte(body), &crd)
	require.NoError(t, err)
	prefix := "spec.versions[0].schema.openAPIV3Schema."
	assert.ElementsMatch(t, []string{
		prefix + "bogus",
		prefix + "properties.a.items.typo",
		prefix + "additionalProperties.x-kubernetes-nope",
		prefix + "dependencies.d.extra",
		prefix + "x-kubernetes-validations[0].mesage",
	}, unknown)
	assert.Equal(t, "string", crd.Spec.Versions[0].Schema.OpenAPIV3Schema.AdditionalProperties.Schema.Type)
}

func TestDecodeStrictRefusesWrongSchemaShapes(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"additionalProperties a string": {
			`{"additionalProperties":"yes"}`,
			`additionalProperties: expected boolean or JSON schema, got string "yes"`},
		"items a number": {
			`{"items":3}`,
			`items: expected JSON schema or array of JSON schemas, got number 3`},
		"dependency a boolean": {
			`{"dependencies":{"a":true}}`,
			`dependencies.a: expected JSON schema or array of strings, got boolean true`},
		"items array of non-schemas": {
			`{"items":[1]}`,
			`items[0]: expected object, got number 1`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			body := `{"spec":{"versions":[{"schema":{"openAPIV3Schema":` + c.body + `}}]}}`
			var crd CustomResourceDefinition
			_, _, err := DecodeStrict([]byte(body), &crd)
			require.Error(t, err)
			assert.Equal(t, "spec.versions[0].schema.openAPIV3Schema."+c.want, err.Error())
		})
	}
}

func TestSchemaDoublesTravelAsFixed64(t *testing.T) {
	max := 10.5
	b, err := MarshalProto(&JSONSchemaProps{Maximum: &max})
	require.NoError(t, err)
	// field 9, wire type 1 (fixed64), then the IEEE 754 bits
	// little-endian (beside the other fields, which gogo writes even when
	// empty).
	assert.Contains(t, string(b), string([]byte{0x49, 0, 0, 0, 0, 0, 0, 0x25, 0x40}))

	var back JSONSchemaProps
	require.NoError(t, UnmarshalProto(b, &back))
	require.NotNil(t, back.Maximum)
	assert.Equal(t, 10.5, *back.Maximum)

	// A double sent as a varint is refused, not misread.
	err = UnmarshalProto([]byte{0x48, 0x01}, &back)
	assert.ErrorContains(t, err, "maximum: wire type varint, want fixed64")
}
