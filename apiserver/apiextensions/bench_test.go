package apiextensions

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/cel"
	"kubeloop/apiserver/apiextensions/schema"
	"kubeloop/apiserver/apiextensions/schema/defaulting"
	"kubeloop/apiserver/apiextensions/schema/pruning"
	"kubeloop/apiserver/apiextensions/schema/validate"
)

// A schema shaped like a kubebuilder operator's: spec with scalars,
// bounds, enums, patterns, defaults, an int-or-string, a list-map of
// ports, a string map and an embedded pod template; a status with
// conditions.
const typicalSchema = `{"type":"object","properties":{
 "apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},
 "spec":{"type":"object","required":["image"],
  "x-kubernetes-validations":[{"rule":"!has(self.minReplicas) || self.minReplicas <= self.replicas","message":"minReplicas above replicas"},
   {"rule":"self.image == oldSelf.image || self.mode == 'Standby'","message":"image changes only in Standby"}],
  "properties":{
  "image":{"type":"string","minLength":1,"maxLength":253},
  "replicas":{"type":"integer","format":"int32","minimum":0,"maximum":100,"default":1},
  "mode":{"type":"string","enum":["Active","Standby"],"default":"Active"},
  "schedule":{"type":"string","pattern":"^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$"},
  "maxUnavailable":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},
  "ports":{"type":"array","maxItems":16,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
   "items":{"type":"object","required":["name","port"],"properties":{
    "name":{"type":"string","maxLength":15},"port":{"type":"integer","minimum":1,"maximum":65535},
    "protocol":{"type":"string","enum":["TCP","UDP"],"default":"TCP"}}}},
  "labels":{"type":"object","additionalProperties":{"type":"string","maxLength":63}},
  "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
  "minReplicas":{"type":"integer","minimum":0},
  "resources":{"type":"object","properties":{
   "limits":{"type":"object","additionalProperties":{"x-kubernetes-int-or-string":true}},
   "requests":{"type":"object","additionalProperties":{"x-kubernetes-int-or-string":true}}}}}},
 "status":{"type":"object","properties":{
  "readyReplicas":{"type":"integer"},
  "conditions":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["type"],
   "items":{"type":"object","required":["type","status"],"properties":{
    "type":{"type":"string"},"status":{"type":"string","enum":["True","False","Unknown"]},
    "reason":{"type":"string"},"message":{"type":"string"},
    "lastTransitionTime":{"type":"string","format":"date-time"}}}}}}}}`

const typicalObject = `{"apiVersion":"example.com/v1","kind":"App",
 "metadata":{"name":"web","namespace":"default","labels":{"app":"web"}},
 "spec":{"image":"nginx:1.27","schedule":"*/5 * * * *","maxUnavailable":"25%",
  "ports":[{"name":"http","port":80},{"name":"https","port":443,"unknownField":true}],
  "labels":{"team":"a","tier":"frontend"},
  "template":{"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}},
  "resources":{"limits":{"cpu":"500m","memory":"128Mi"},"requests":{"cpu":1}},"typo":1},
 "status":{"readyReplicas":2,"conditions":[{"type":"Ready","status":"True","reason":"Up","lastTransitionTime":"2026-01-02T03:04:05Z"}]}}`

// TestTypicalResourcePipeline keeps the benchmark honest: the pipeline
// really prunes, defaults and validates the object it measures.
func TestTypicalResourcePipeline(t *testing.T) {
	s, v, rules := typical(t)
	obj := decode(t)
	assert := require.New(t)
	assert.Equal([]string{"spec.ports[1].unknownField", "spec.typo"}, pruning.Prune(obj, s, true))
	defaulting.PruneNonNullableNullsWithoutDefaults(obj, s)
	defaulting.Default(obj, s)
	spec := obj["spec"].(map[string]any)
	assert.Equal(int64(1), spec["replicas"])
	assert.Equal("TCP", spec["ports"].([]any)[1].(map[string]any)["protocol"])
	assert.Empty(v.ValidateCustomResource(obj))
	errs, _ := rules.Validate(context.Background(), "", obj, decode(t), cel.RuntimeCELCostBudget)
	assert.Empty(errs)

	spec["replicas"] = int64(1000)
	assert.Len(v.ValidateCustomResource(obj), 1)
	spec["replicas"], spec["minReplicas"] = int64(1), int64(2)
	errs, _ = rules.Validate(context.Background(), "", obj, nil, cel.RuntimeCELCostBudget)
	assert.Equal("spec: Invalid value: minReplicas above replicas", errs.Error())
}

func BenchmarkPruneDefaultValidateTypicalResource(b *testing.B) {
	s, v, _ := typical(b)
	raw := []byte(typicalObject)
	b.ReportAllocs()
	for b.Loop() {
		x, err := schema.DecodeJSON(raw)
		if err != nil {
			b.Fatal(err)
		}
		obj := x.(map[string]any)
		pruning.Prune(obj, s, true)
		defaulting.PruneNonNullableNullsWithoutDefaults(obj, s)
		defaulting.Default(obj, s)
		if errs := v.ValidateCustomResource(obj); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// BenchmarkPruneDefaultValidateWithRulesTypicalResource is the same as
// an update: with the CEL rules, against the stored object.
func BenchmarkPruneDefaultValidateWithRulesTypicalResource(b *testing.B) {
	s, v, rules := typical(b)
	raw := []byte(typicalObject)
	old := decode(b)
	pruning.Prune(old, s, true)
	defaulting.Default(old, s)
	b.ReportAllocs()
	for b.Loop() {
		x, err := schema.DecodeJSON(raw)
		if err != nil {
			b.Fatal(err)
		}
		obj := x.(map[string]any)
		pruning.Prune(obj, s, true)
		defaulting.PruneNonNullableNullsWithoutDefaults(obj, s)
		defaulting.Default(obj, s)
		errs := v.ValidateCustomResource(obj)
		ruleErrs, _ := rules.Validate(context.Background(), "", obj, old, cel.RuntimeCELCostBudget)
		if len(errs)+len(ruleErrs) > 0 {
			b.Fatal(errs, ruleErrs)
		}
	}
}

// BenchmarkDecodeTypicalResource is the decoding alone, to set the
// pipeline's cost against.
func BenchmarkDecodeTypicalResource(b *testing.B) {
	raw := []byte(typicalObject)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := schema.DecodeJSON(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func typical(tb testing.TB) (*schema.Structural, *validate.Validator, *cel.Validator) {
	var props api.JSONSchemaProps
	require.NoError(tb, json.Unmarshal([]byte(typicalSchema), &props))
	s, err := schema.NewStructural(&props)
	require.NoError(tb, err)
	require.Empty(tb, schema.ValidateStructural("", s))
	v, err := validate.New(s)
	require.NoError(tb, err)
	compiler, err := cel.DefaultCompiler()
	require.NoError(tb, err)
	require.Empty(tb, compiler.ValidateRules("", s))
	rules := compiler.NewValidator(s, true)
	require.NotNil(tb, rules)
	return s, v, rules
}

func decode(tb testing.TB) map[string]any {
	x, err := schema.DecodeJSON([]byte(typicalObject))
	require.NoError(tb, err)
	return x.(map[string]any)
}
