package validate

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema"
)

func structural(t testing.TB, schemaJSON string) *schema.Structural {
	t.Helper()
	var props api.JSONSchemaProps
	require.NoError(t, json.Unmarshal([]byte(schemaJSON), &props))
	s, err := schema.NewStructural(&props)
	require.NoError(t, err)
	require.Empty(t, schema.ValidateStructural("", s), "test schemas are structural")
	return s
}

func object(t testing.TB, objJSON string) map[string]any {
	t.Helper()
	v, err := schema.DecodeJSON([]byte(objJSON))
	require.NoError(t, err)
	return v.(map[string]any)
}

func messages(errs field.ErrorList) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// specSchema wraps the schema of spec.x in a root object.
func specSchema(x string) string {
	return `{"type":"object","properties":{"spec":{"type":"object","properties":{"x":` + x + `}}}}`
}

func TestValidateValueReportsKubernetesMessages(t *testing.T) {
	cases := []struct {
		name, schema, value string
		want                []string
	}{
		{"a valid integer", `{"type":"integer","minimum":1}`, `3`, nil},
		{"a wrong type", `{"type":"integer"}`, `"three"`,
			[]string{`spec.x: Invalid value: "string": spec.x in body must be of type integer: "string"`}},
		{"an integral float is an integer", `{"type":"integer"}`, `2.0`, nil},
		{"an integer is a number", `{"type":"number"}`, `2`, nil},
		{"a fraction is not an integer", `{"type":"integer"}`, `2.5`,
			[]string{`spec.x: Invalid value: "number": spec.x in body must be of type integer: "number"`}},
		{"null where not nullable", `{"type":"string"}`, `null`,
			[]string{`spec.x: Invalid value: "null": spec.x in body must be of type string: "null"`}},
		{"null where nullable", `{"type":"string","nullable":true}`, `null`, nil},
		{"below the minimum", `{"type":"integer","minimum":1}`, `0`,
			[]string{`spec.x: Invalid value: 0: spec.x in body should be greater than or equal to 1`}},
		{"at an exclusive minimum", `{"type":"number","minimum":1.5,"exclusiveMinimum":true}`, `1.5`,
			[]string{`spec.x: Invalid value: 1.5: spec.x in body should be greater than 1.5`}},
		{"above the maximum", `{"type":"integer","maximum":10}`, `11`,
			[]string{`spec.x: Invalid value: 11: spec.x in body should be less than or equal to 10`}},
		{"at an exclusive maximum", `{"type":"integer","maximum":10,"exclusiveMaximum":true}`, `10`,
			[]string{`spec.x: Invalid value: 10: spec.x in body should be less than 10`}},
		{"not a multiple", `{"type":"integer","multipleOf":5}`, `12`,
			[]string{`spec.x: Invalid value: 12: spec.x in body should be a multiple of 5`}},
		{"too long", `{"type":"string","maxLength":3}`, `"abcd"`,
			[]string{`spec.x: Too long: may not be more than 3 bytes`}},
		{"length counts characters", `{"type":"string","maxLength":3}`, `"äöü"`, nil},
		{"too short", `{"type":"string","minLength":3}`, `"ab"`,
			[]string{`spec.x: Invalid value: "ab": spec.x in body should be at least 3 chars long`}},
		{"no pattern match", `{"type":"string","pattern":"^[a-z]+$"}`, `"A1"`,
			[]string{`spec.x: Invalid value: "A1": spec.x in body should match '^[a-z]+$'`}},
		{"not in the enum", `{"type":"string","enum":["red","green"]}`, `"blue"`,
			[]string{`spec.x: Unsupported value: "blue": supported values: "red", "green"`}},
		{"a number enum", `{"type":"integer","enum":[1,2]}`, `3`,
			[]string{`spec.x: Unsupported value: 3: supported values: "1", "2"`}},
		{"in a number enum as a float", `{"type":"integer","enum":[1,2]}`, `2.0`, nil},
		{"a bad format", `{"type":"string","format":"uuid"}`, `"nope"`,
			[]string{`spec.x: Invalid value: "nope": spec.x in body must be of type uuid: "nope"`}},
		{"a good format", `{"type":"string","format":"date-time"}`, `"2026-01-02T03:04:05Z"`, nil},
		{"an unknown format is ignored", `{"type":"string","format":"color"}`, `"nope"`, nil},
		{"too few items", `{"type":"array","items":{"type":"string"},"minItems":2}`, `["a"]`,
			[]string{`spec.x: Invalid value: 1: spec.x in body should have at least 2 items`}},
		{"too many items", `{"type":"array","items":{"type":"string"},"maxItems":1}`, `["a","b"]`,
			[]string{`spec.x: Too many: 2: must have at most 1 item`}},
		{"bad items", `{"type":"array","items":{"type":"string","maxLength":1}}`, `["a","bc",3]`,
			[]string{`spec.x[1]: Too long: may not be more than 1 byte`,
				`spec.x[2]: Invalid value: "integer": spec.x[2] in body must be of type string: "integer"`}},
		{"too few properties", `{"type":"object","additionalProperties":{"type":"string"},"minProperties":2}`, `{"a":"b"}`,
			[]string{`spec.x: Invalid value: 1: spec.x in body should have at least 2 properties`}},
		{"too many properties", `{"type":"object","additionalProperties":{"type":"string"},"maxProperties":1}`, `{"a":"b","c":"d"}`,
			[]string{`spec.x: Too many: 2: must have at most 1 item`}},
		{"bad map values", `{"type":"object","additionalProperties":{"type":"string"}}`, `{"a":1}`,
			[]string{`spec.x.a: Invalid value: "integer": spec.x.a in body must be of type string: "integer"`}},
		{"required fields", `{"type":"object","required":["a","b"],"properties":{"a":{"type":"string"},"b":{"type":"string"}}}`, `{}`,
			[]string{`spec.x.a: Required value`, `spec.x.b: Required value`}},
		{"int-or-string takes an int", `{"x-kubernetes-int-or-string":true}`, `80`, nil},
		{"int-or-string takes a string", `{"x-kubernetes-int-or-string":true}`, `"50%"`, nil},
		{"int-or-string refuses a bool", `{"x-kubernetes-int-or-string":true}`, `true`,
			[]string{`spec.x: Invalid value: "boolean": spec.x in body must be of type integer,string: "boolean"`}},
		{"anyOf with no match", `{"type":"string","anyOf":[{"maxLength":1},{"pattern":"^[0-9]+%$"}]}`, `"xyz"`,
			[]string{`<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)`,
				`spec.x: Too long: may not be more than 1 byte`}},
		{"anyOf with a match", `{"type":"string","anyOf":[{"maxLength":1},{"pattern":"^[0-9]+%$"}]}`, `"5%"`, nil},
		{"the int-or-string idiom", `{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}`, `[]`,
			[]string{`spec.x: Invalid value: "array": spec.x in body must be of type integer,string: "array"`,
				`<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)`,
				`spec.x: Invalid value: "array": spec.x in body must be of type integer: "array"`}},
		{"oneOf with two matches", `{"type":"string","oneOf":[{"minLength":1},{"maxLength":5}]}`, `"abc"`,
			[]string{`<nil>: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found 2 valid alternatives`}},
		{"allOf failing", `{"type":"string","allOf":[{"minLength":2},{"maxLength":5}]}`, `"a"`,
			[]string{`spec.x: Invalid value: "a": spec.x in body should be at least 2 chars long`,
				`<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf)`}},
		{"not matching", `{"type":"string","not":{"enum":["admin"]}}`, `"admin"`,
			[]string{`<nil>: Invalid value: "": "spec.x" must not validate the schema (not)`}},
		{"an int32 out of range", `{"type":"integer","format":"int32"}`, `3000000000`,
			[]string{`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.x`}},
		{"an int32 in range", `{"type":"integer","format":"int32"}`, `-2147483648`, nil},
		{"every violation at once", `{"type":"object","required":["c"],"properties":{"a":{"type":"integer","maximum":1},"b":{"type":"string","enum":["x"]},"c":{"type":"string"}}}`, `{"a":5,"b":"y"}`,
			[]string{`spec.x.a: Invalid value: 5: spec.x.a in body should be less than or equal to 1`,
				`spec.x.b: Unsupported value: "y": supported values: "x"`,
				`spec.x.c: Required value`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := New(structural(t, specSchema(c.schema)))
			require.NoError(t, err)
			got := messages(v.ValidateValue(object(t, `{"spec":{"x":`+c.value+`}}`)))
			if c.want == nil {
				c.want = []string{}
			}
			assert.Equal(t, c.want, got)
		})
	}
}

func TestValidateListSetsAndMapsReportsEveryDuplicate(t *testing.T) {
	s := structural(t, `{"type":"object","properties":{
		"set":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
		"ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
			"items":{"type":"object","properties":{"name":{"type":"string"},"port":{"type":"integer"}}}},
		"pairs":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a","b"],
			"items":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}}}}`)
	obj := object(t, `{
		"set":["a","b","a","a","b"],
		"ports":[{"name":"http","port":80},{"name":"http","port":81},{"port":1},{"port":2}],
		"pairs":[{"a":"1","b":"2"},{"a":"1","b":"3"},{"b":"2","a":"1"}]}`)
	assert.Equal(t, []string{
		`pairs[2]: Duplicate value: {"a":"1","b":"2"}`,
		`ports[1]: Duplicate value: {"name":"http"}`,
		`ports[3]: Duplicate value: {}`,
		`set[2]: Duplicate value: "a"`,
		`set[4]: Duplicate value: "b"`,
	}, messages(ValidateListSetsAndMaps("", s, obj)))

	bad := object(t, `{"ports":["http"]}`)
	assert.Equal(t, []string{`ports[0]: Invalid value: "http": must be an object for an array of list-type map`},
		messages(ValidateListSetsAndMaps("", s, bad)))
}

func TestValidateEmbeddedResources(t *testing.T) {
	s := structural(t, `{"type":"object","properties":{"template":{"type":"object",
		"x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`)
	cases := []struct {
		obj  string
		want []string
	}{
		{`{"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}}`, nil},
		{`{"template":{}}`, []string{"template.apiVersion: Required value", "template.kind: Required value"}},
		{`{"template":{"apiVersion":1,"kind":""}}`, []string{
			`template.apiVersion: Invalid value: 1: must be a string`,
			`template.kind: Invalid value: "": must not be empty`}},
		{`{"template":{"apiVersion":"a/b/c","kind":"My_Kind"}}`, []string{
			`template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
			`template.kind: Invalid value: "My_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`}},
		{`{"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a/b","namespace":"Bad"}}}`, []string{
			`template.metadata.name: Invalid value: "a/b": may not contain '/'`,
			`template.metadata.namespace: Invalid value: "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`}},
	}
	for _, c := range cases {
		got := messages(ValidateEmbeddedResources("", object(t, c.obj), s))
		if c.want == nil {
			c.want = []string{}
		}
		assert.Equal(t, c.want, got, c.obj)
	}
}

func TestNewRefusesABadPattern(t *testing.T) {
	s := &schema.Structural{Generic: schema.Generic{Type: "string"}, ValueValidation: &schema.ValueValidation{Pattern: "("}}
	_, err := New(s)
	assert.Error(t, err)
}

// ValidateCustomResource walks the object for embedded resources and list
// duplicates only when the schema has them somewhere, however deep: its
// answer is the three walks' together either way.
func TestValidateCustomResourceSkipsOnlyWalksThatCannotFind(t *testing.T) {
	schemas := map[string]string{
		"neither": `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"},
			"l":{"type":"array","items":{"type":"string"}}}}}}`,
		"embedded in list items": `{"type":"object","properties":{"spec":{"type":"object","properties":{"l":{"type":"array",
			"items":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}}}`,
		"set under additionalProperties": `{"type":"object","properties":{"spec":{"type":"object","additionalProperties":{
			"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}}`,
	}
	objects := []string{`{"spec":{"a":"x","l":["p","p"]}}`, `{"spec":{"l":[{}]}}`, `{"spec":{"k":["p","p"]}}`, `{"spec":{}}`}
	for name, js := range schemas {
		s := structural(t, js)
		v, err := New(s)
		require.NoError(t, err)
		for _, o := range objects {
			obj := object(t, o)
			want := v.ValidateValue(obj)
			want = append(want, ValidateEmbeddedResources("", obj, s)...)
			want = append(want, ValidateListSetsAndMaps("", s, obj)...)
			assert.Equal(t, messages(want), messages(v.ValidateCustomResource(obj)), "%s: %s", name, o)
		}
	}
	v, err := New(structural(t, schemas["embedded in list items"]))
	require.NoError(t, err)
	assert.NotEmpty(t, v.ValidateCustomResource(object(t, `{"spec":{"l":[{}]}}`)), "an embedded resource without apiVersion and kind")
	v, err = New(structural(t, schemas["set under additionalProperties"]))
	require.NoError(t, err)
	assert.NotEmpty(t, v.ValidateCustomResource(object(t, `{"spec":{"k":["p","p"]}}`)), "a duplicate in a set")
}
