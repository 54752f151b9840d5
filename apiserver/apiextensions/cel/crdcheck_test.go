package cel

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidateRulesAtCRDTime(t *testing.T) {
	c := newCompiler(t)
	const p = "spec.versions[0].schema.openAPIV3Schema"
	const sp = p + ".properties[spec].x-kubernetes-validations"
	cases := []struct {
		name, rules string
		want        []string // each the start of one error
	}{
		{"valid rules", `[{"rule":"self.replicas > 0"},{"rule":"self.replicas >= oldSelf.replicas"}]`, nil},
		{"an undefined field", `[{"rule":"self.nope > 0"}]`,
			[]string{sp + `[0].rule: Invalid value: {"rule":"self.nope \u003e 0"}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'`}},
		{"metadata beyond name", `[{"rule":"self.replicas > 0"}]`, nil},
		{"not a bool", `[{"rule":"self.replicas"}]`,
			[]string{sp + `[0].rule: Invalid value: {"rule":"self.replicas"}: cel expression must evaluate to a bool`}},
		{"a messageExpression not a string", `[{"rule":"true","messageExpression":"1"}]`,
			[]string{sp + `[0].messageExpression: Invalid value: {"rule":"true","messageExpression":"1"}: messageExpression must evaluate to a string`}},
		{"optionalOldSelf without oldSelf", `[{"rule":"self.replicas > 0","optionalOldSelf":true}]`,
			[]string{sp + `[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`}},
		{"a rule too expensive", `[{"rule":"self.unbounded.all(a, self.unbounded.all(b, a != b))"}]`,
			[]string{sp + `[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
				p + `.properties[spec].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
				p + `: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x`}},
		{"the same rule bounded", `[{"rule":"self.bounded.all(a, self.bounded.all(b, a != b))"}]`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := structural(t, `{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-validations":`+tc.rules+`,
				"properties":{"replicas":{"type":"integer"},
					"unbounded":{"type":"array","items":{"type":"string"}},
					"bounded":{"type":"array","maxItems":10,"items":{"type":"string","maxLength":10}}}}}}`)
			got := messages(c.ValidateRules(p, s))
			require.Len(t, got, len(tc.want), "%q", got)
			for i := range tc.want {
				assert.True(t, strings.HasPrefix(got[i], tc.want[i]), "got  %s\nwant %s...", got[i], tc.want[i])
			}
		})
	}
}

func TestValidateRulesRefusesOldSelfWhereNoOldValueExists(t *testing.T) {
	c := newCompiler(t)
	s := structural(t, `{"type":"object","properties":{
		"atomic":{"type":"array","maxItems":10,"items":{"type":"object","properties":{"a":{"type":"string","maxLength":10}},
			"x-kubernetes-validations":[{"rule":"self.a == oldSelf.a"}]}},
		"keyed":{"type":"array","maxItems":10,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a"],
			"items":{"type":"object","required":["a"],"properties":{"a":{"type":"string","maxLength":10}},
			"x-kubernetes-validations":[{"rule":"self.a == oldSelf.a"}]}}}}`)
	assert.Equal(t, []string{
		`properties[atomic].items.x-kubernetes-validations[0].rule: Invalid value: "self.a == oldSelf.a": oldSelf cannot be used on the uncorrelatable portion of the schema within properties[atomic]`,
	}, messages(c.ValidateRules("", s)))
}

func TestValidateRulesCountsHowOftenARuleRuns(t *testing.T) {
	c := newCompiler(t)
	// A rule whose cost grows with its string's length, on every element
	// of unbounded lists, may run so often on such long strings that its
	// estimated cost is too high; bounding the lists and the string makes
	// it cheap.
	s := structural(t, `{"type":"object","properties":{"outer":{"type":"array","items":{"type":"array",
		"items":{"type":"string","x-kubernetes-validations":[{"rule":"self.contains('x')"}]}}}}}`)
	got := messages(c.ValidateRules("", s))
	require.NotEmpty(t, got)
	assert.True(t, strings.HasPrefix(got[0], "properties[outer].items.items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget"), got[0])

	bounded := structural(t, `{"type":"object","properties":{"outer":{"type":"array","maxItems":10,"items":{"type":"array","maxItems":10,
		"items":{"type":"string","maxLength":100,"x-kubernetes-validations":[{"rule":"self.contains('x')"}]}}}}}`)
	assert.Empty(t, c.ValidateRules("", bounded))
}
