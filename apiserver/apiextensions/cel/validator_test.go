package cel

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
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
	require.Empty(t, schema.ValidateStructural("", s))
	return s
}

func value(t testing.TB, j string) any {
	t.Helper()
	if j == "" {
		return nil
	}
	v, err := schema.DecodeJSON([]byte(j))
	require.NoError(t, err)
	return v
}

func messages(errs field.ErrorList) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func newCompiler(t testing.TB) *Compiler {
	t.Helper()
	c, err := NewCompiler()
	require.NoError(t, err)
	return c
}

// withRules puts rules (a JSON list) on spec of a small CronTab-like schema.
func crontab(specRules string) string {
	return `{"type":"object","properties":{"spec":{"type":"object",
		"x-kubernetes-validations":` + specRules + `,
		"properties":{
			"replicas":{"type":"integer"},
			"minReplicas":{"type":"integer"},
			"price":{"type":"number"},
			"name":{"type":"string","maxLength":20},
			"image":{"type":"string"},
			"when":{"type":"string","format":"date-time"},
			"timeout":{"type":"string","format":"duration"},
			"tags":{"type":"array","maxItems":10,"items":{"type":"string","maxLength":10}},
			"labels":{"type":"object","maxProperties":10,"additionalProperties":{"type":"string","maxLength":10}},
			"ports":{"type":"array","maxItems":10,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
				"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string","maxLength":10},"port":{"type":"integer"}},
					"x-kubernetes-validations":[{"rule":"self.port > 0","message":"port must be positive"},
						{"rule":"self.port == oldSelf.port","message":"port is immutable"}]}},
			"x-y":{"type":"string"}}}}}`
}

func TestRulesReportFailuresAsKubernetesDoes(t *testing.T) {
	c := newCompiler(t)
	cases := []struct {
		name, rules, obj, old string
		want                  []string
	}{
		{"a passing rule", `[{"rule":"self.replicas >= self.minReplicas"}]`, `{"spec":{"replicas":3,"minReplicas":1}}`, "", nil},
		{"the default message", `[{"rule":"self.replicas >= self.minReplicas"}]`, `{"spec":{"replicas":0,"minReplicas":1}}`, "",
			[]string{"spec: Invalid value: failed rule: self.replicas >= self.minReplicas"}},
		{"a message", `[{"rule":"self.replicas <= 10","message":"at most ten"}]`, `{"spec":{"replicas":11}}`, "",
			[]string{"spec: Invalid value: at most ten"}},
		{"a messageExpression", `[{"rule":"self.replicas <= 10","messageExpression":"'too many: ' + string(self.replicas)"}]`, `{"spec":{"replicas":11}}`, "",
			[]string{"spec: Invalid value: too many: 11"}},
		{"a reason and a fieldPath", `[{"rule":"self.replicas <= 10","message":"at most ten","reason":"FieldValueForbidden","fieldPath":".replicas"}]`, `{"spec":{"replicas":11}}`, "",
			[]string{"spec.replicas: Forbidden: at most ten"}},
		{"a required reason", `[{"rule":"has(self.image)","message":"image is needed","reason":"FieldValueRequired"}]`, `{"spec":{}}`, "",
			[]string{"spec: Required value: image is needed"}},
		{"has() on a missing field", `[{"rule":"!has(self.image) || self.image != ''"}]`, `{"spec":{}}`, "", nil},
		{"a missing field without has()", `[{"rule":"self.image != ''"}]`, `{"spec":{}}`, "",
			[]string{`spec: Invalid value: "object": no such key: image evaluating rule: self.image != ''`}},
		{"a number field holding an integer", `[{"rule":"self.price * 2.0 < 10.0"}]`, `{"spec":{"price":3}}`, "", nil},
		{"string extensions", `[{"rule":"self.name.lowerAscii().startsWith('web') && self.name.split('-').size() == 2"}]`, `{"spec":{"name":"Web-1"}}`, "", nil},
		{"regex matches", `[{"rule":"self.image.matches('^[a-z]+:[0-9.]+$')","message":"bad image"}]`, `{"spec":{"image":"nginx:latest"}}`, "",
			[]string{"spec: Invalid value: bad image"}},
		{"list macros", `[{"rule":"self.tags.all(t, t.size() < 5) && self.tags.exists_one(t, t == 'a')"}]`, `{"spec":{"tags":["a","bb"]}}`, "", nil},
		{"objects inside a comprehension", `[{"rule":"self.ports.all(p, p.port > 0 && has(p.name)) && self.ports.exists(p, p.name == 'http')"}]`,
			`{"spec":{"ports":[{"name":"http","port":80},{"name":"b","port":1}]}}`, "", nil},
		{"object equality", `[{"rule":"self.ports[0] == oldSelf.ports[0]","message":"first port changed"}]`,
			`{"spec":{"ports":[{"name":"http","port":80}]}}`, `{"spec":{"ports":[{"name":"http","port":81}]}}`,
			[]string{"spec: Invalid value: first port changed", "spec.ports[0]: Invalid value: port is immutable"}},
		{"map values", `[{"rule":"self.labels.all(k, self.labels[k] != '')","message":"empty label"}]`, `{"spec":{"labels":{"a":""}}}`, "",
			[]string{"spec: Invalid value: empty label"}},
		{"timestamps and durations", `[{"rule":"self.when > timestamp('2020-01-01T00:00:00Z') && self.timeout < duration('1h')"}]`, `{"spec":{"when":"2026-01-02T03:04:05Z","timeout":"30m"}}`, "", nil},
		{"an escaped property name", `[{"rule":"self.x__dash__y == 'ok'"}]`, `{"spec":{"x-y":"ok"}}`, "", nil},
		{"a transition rule on create is skipped", `[{"rule":"self.replicas >= oldSelf.replicas","message":"no scaling down"}]`, `{"spec":{"replicas":1}}`, "", nil},
		{"a transition rule on update", `[{"rule":"self.replicas >= oldSelf.replicas","message":"no scaling down"}]`, `{"spec":{"replicas":1}}`, `{"spec":{"replicas":2}}`,
			[]string{"spec: Invalid value: no scaling down"}},
		{"an optional oldSelf on create", `[{"rule":"!oldSelf.hasValue() || self.replicas >= oldSelf.value().replicas","optionalOldSelf":true,"message":"no scaling down"}]`, `{"spec":{"replicas":1}}`, "", nil},
		{"every failure at once", `[{"rule":"self.replicas > 0","message":"a"},{"rule":"self.minReplicas > 0","message":"b"}]`, `{"spec":{"replicas":0,"minReplicas":0}}`, "",
			[]string{"spec: Invalid value: a", "spec: Invalid value: b"}},
		{"rules on list-map items, correlated by key", `[]`,
			`{"spec":{"ports":[{"name":"http","port":81},{"name":"https","port":0}]}}`,
			`{"spec":{"ports":[{"name":"https","port":443},{"name":"http","port":80}]}}`,
			[]string{"spec.ports[0]: Invalid value: port is immutable", "spec.ports[1]: Invalid value: port must be positive", "spec.ports[1]: Invalid value: port is immutable"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := c.NewValidator(structural(t, crontab(tc.rules)), true)
			require.NotNil(t, v)
			errs, left := v.Validate(context.Background(), "", value(t, tc.obj), value(t, tc.old), RuntimeCELCostBudget)
			if tc.want == nil {
				tc.want = []string{}
			}
			assert.Equal(t, tc.want, messages(errs))
			assert.Positive(t, left)
		})
	}
}

func TestRootRulesSeeTypeMetaAndName(t *testing.T) {
	c := newCompiler(t)
	s := structural(t, `{"type":"object","x-kubernetes-validations":[{"rule":"self.metadata.name.startsWith('x') && self.kind == 'CronTab'","message":"name"}],
		"properties":{"spec":{"type":"object"}}}`)
	v := c.NewValidator(s, true)
	errs, _ := v.Validate(context.Background(), "", value(t, `{"kind":"CronTab","metadata":{"name":"y"},"spec":{}}`), nil, RuntimeCELCostBudget)
	// Kubernetes validates from a nil field.Path, which prints "<nil>".
	assert.Equal(t, []string{"<nil>: Invalid value: name"}, messages(errs))
}

func TestNoRulesNoValidator(t *testing.T) {
	assert.Nil(t, newCompiler(t).NewValidator(structural(t, `{"type":"object","properties":{"a":{"type":"string"}}}`), true))
}

func TestRuntimeCostLimits(t *testing.T) {
	c := newCompiler(t)
	s := structural(t, `{"type":"object","properties":{"list":{"type":"array","items":{"type":"string"},
		"x-kubernetes-validations":[{"rule":"self.all(a, self.all(b, a == b))","message":"quadratic"},{"rule":"true"}]}}}`)
	v := c.NewValidator(s, true)
	// Comparing long strings costs in proportion to their length, so a
	// few hundred thousand comparisons exceed the per-call limit.
	list := make([]any, 150)
	for i := range list {
		list[i] = strings.Repeat("x", 1000)
	}
	obj := map[string]any{"list": list}

	errs, left := v.Validate(context.Background(), "", obj, nil, RuntimeCELCostBudget)
	require.Len(t, errs, 1)
	assert.Equal(t, `list: Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: quadratic`, errs[0].Error())
	assert.Negative(t, left)

	small := map[string]any{"list": []any{"a", "a"}}
	errs, _ = v.Validate(context.Background(), "", small, nil, 5)
	assert.Equal(t, []string{`list: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run`}, messages(errs))

	errs, left = v.Validate(context.Background(), "", small, nil, RuntimeCELCostBudget)
	assert.Empty(t, errs)
	assert.Less(t, left, int64(RuntimeCELCostBudget), "the rules' cost is taken from the budget")
}

func BenchmarkValidateRules(b *testing.B) {
	c := newCompiler(b)
	v := c.NewValidator(structural(b, crontab(`[{"rule":"self.replicas >= self.minReplicas","message":"m"},{"rule":"self.tags.all(t, t.size() < 5)"}]`)), true)
	obj := value(b, `{"spec":{"replicas":3,"minReplicas":1,"tags":["a","b"],"ports":[{"name":"http","port":80}]}}`)
	old := value(b, `{"spec":{"replicas":3,"minReplicas":1,"tags":["a","b"],"ports":[{"name":"http","port":80}]}}`)
	b.ReportAllocs()
	for b.Loop() {
		if errs, _ := v.Validate(context.Background(), "", obj, old, RuntimeCELCostBudget); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// One Validator serves every request of its CRD version at once.
func TestValidatorIsSafeForConcurrentUse(t *testing.T) {
	v := newCompiler(t).NewValidator(structural(t, crontab(`[{"rule":"self.replicas <= 10","message":"at most ten"}]`)), true)
	done := make(chan []string)
	for i := range 8 {
		go func() {
			obj := value(t, fmt.Sprintf(`{"spec":{"replicas":%d,"ports":[{"name":"a","port":1}]}}`, 5+i))
			errs, _ := v.Validate(context.Background(), "", obj, obj, RuntimeCELCostBudget)
			done <- messages(errs)
		}()
	}
	failed := 0
	for range 8 {
		if got := <-done; len(got) > 0 {
			assert.Equal(t, []string{"spec: Invalid value: at most ten"}, got)
			failed++
		}
	}
	assert.Equal(t, 2, failed, "replicas 11 and 12 fail")
}
