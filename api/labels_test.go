package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSelectorMatchesKubernetesSemantics(t *testing.T) {
	cases := []struct {
		selector string
		labels   map[string]string
		want     bool
	}{
		{"", nil, true},
		{"", map[string]string{"a": "b"}, true},
		{"app=web", map[string]string{"app": "web"}, true},
		{"app==web", map[string]string{"app": "web"}, true},
		{"app=web", map[string]string{"app": "db"}, false},
		{"app=web", nil, false},
		{"app!=web", nil, true}, // absent satisfies !=
		{"app!=web", map[string]string{"app": "web"}, false},
		{"app!=web", map[string]string{"app": "db"}, true},
		{"tier in (a,b)", map[string]string{"tier": "b"}, true},
		{"tier in (a,b)", map[string]string{"tier": "c"}, false},
		{"tier in (a,b)", nil, false},
		{"tier notin (a)", nil, true},
		{"tier notin (a)", map[string]string{"tier": "a"}, false},
		{"canary", map[string]string{"canary": ""}, true},
		{"canary", nil, false},
		{"!canary", nil, true},
		{"!canary", map[string]string{"canary": "x"}, false},
		{"a=1,b=2", map[string]string{"a": "1", "b": "2"}, true},
		{"a=1,b=2", map[string]string{"a": "1"}, false},
		{"  a = 1 ,  b  in ( 2 , 3 ) ", map[string]string{"a": "1", "b": "3"}, true},
		{"a=", map[string]string{"a": ""}, true},
		{"a=", map[string]string{"a": "x"}, false},
		{"example.com/app=web", map[string]string{"example.com/app": "web"}, true},
	}
	for _, c := range cases {
		t.Run(c.selector, func(t *testing.T) {
			s, err := ParseSelector(c.selector)
			require.NoError(t, err)
			assert.Equal(t, c.want, s.Matches(c.labels))
		})
	}
}

func TestParseSelectorStringRoundTrips(t *testing.T) {
	cases := map[string]string{
		"":                          "",
		"b=2,a=1":                   "a=1,b=2",
		"a==1":                      "a=1",
		"x!=y":                      "x!=y",
		"t in (c,a,b,a)":            "t in (a,b,c)",
		"t notin (z)":               "t notin (z)",
		"!canary,app":               "app,!canary",
		"a=":                        "a=",
		"k in (,x)":                 "k in (,x)",
		"example.com/role=frontend": "example.com/role=frontend",
	}
	for in, want := range cases {
		s, err := ParseSelector(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, s.String(), in)
		again, err := ParseSelector(s.String())
		require.NoError(t, err)
		assert.Equal(t, s.String(), again.String())
	}
}

func TestParseSelectorErrorsNameTheToken(t *testing.T) {
	cases := []struct{ selector, wantInError string }{
		{"a (b)", "'(' at position 2"},
		{"a in b", "'b' at position 5"},
		{"a in (b", "end of input"},
		{"a=b c", "'c' at position 4"},
		{"=b", "'=' at position 0"},
		{"a,", "after ','"},
		{"a in ()", "can't be empty"},
		{"a=b=c", "'=' at position 3"},
		{"!", "end of input"},
		{"-bad=1", "invalid label key \"-bad\""},
		{"a=-bad", "invalid label value: \"-bad\""},
		{"a/b/c=1", "invalid label key"},
		{"a>1", `invalid label key "a>1"`},
	}
	for _, c := range cases {
		t.Run(c.selector, func(t *testing.T) {
			_, err := ParseSelector(c.selector)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.wantInError)
			assert.Contains(t, err.Error(), "unable to parse requirement")
		})
	}
}

func TestSelectorFromSetRequiresEveryPair(t *testing.T) {
	s := SelectorFromSet(map[string]string{"b": "2", "a": "1"})
	assert.Equal(t, "a=1,b=2", s.String())
	assert.True(t, s.Matches(map[string]string{"a": "1", "b": "2", "c": "3"}))
	assert.False(t, s.Matches(map[string]string{"a": "1"}))
	assert.True(t, SelectorFromSet(nil).Empty())
	assert.True(t, Everything().Matches(nil))

	_, err := ValidatedSelectorFromSet(map[string]string{"a": "not valid"})
	require.Error(t, err)
}

func TestLabelSelectorAsSelectorNilSelectsNothingEmptySelectsEverything(t *testing.T) {
	nothing, err := LabelSelectorAsSelector(nil)
	require.NoError(t, err)
	assert.False(t, nothing.Matches(map[string]string{"a": "b"}))
	assert.False(t, nothing.Empty())

	everything, err := LabelSelectorAsSelector(&LabelSelector{})
	require.NoError(t, err)
	assert.True(t, everything.Matches(nil))
	assert.True(t, everything.Empty())
}

func TestLabelSelectorAsSelectorCombinesLabelsAndExpressions(t *testing.T) {
	s, err := LabelSelectorAsSelector(&LabelSelector{
		MatchLabels: map[string]string{"app": "web"},
		MatchExpressions: []LabelSelectorRequirement{
			{Key: "tier", Operator: LabelSelectorOpIn, Values: []string{"fe", "be"}},
			{Key: "env", Operator: LabelSelectorOpNotIn, Values: []string{"prod"}},
			{Key: "team", Operator: LabelSelectorOpExists},
			{Key: "canary", Operator: LabelSelectorOpDoesNotExist},
		},
	})
	require.NoError(t, err)
	assert.Equal(t, "app=web,!canary,env notin (prod),team,tier in (be,fe)", s.String())
	assert.True(t, s.Matches(map[string]string{"app": "web", "tier": "fe", "team": "x"}))
	assert.False(t, s.Matches(map[string]string{"app": "web", "tier": "fe", "team": "x", "canary": "1"}))
	assert.False(t, s.Matches(map[string]string{"app": "web", "tier": "fe", "team": "x", "env": "prod"}))
	assert.False(t, s.Matches(map[string]string{"app": "web", "tier": "mid", "team": "x"}))

	parsed, err := ParseSelector(s.String())
	require.NoError(t, err)
	assert.Equal(t, s, parsed)

	_, err = LabelSelectorAsSelector(&LabelSelector{MatchExpressions: []LabelSelectorRequirement{
		{Key: "a", Operator: "Gt", Values: []string{"1"}}}})
	require.ErrorContains(t, err, `"Gt"`)
	_, err = LabelSelectorAsSelector(&LabelSelector{MatchExpressions: []LabelSelectorRequirement{
		{Key: "a", Operator: LabelSelectorOpIn}}})
	require.ErrorContains(t, err, "can't be empty")
	_, err = LabelSelectorAsSelector(&LabelSelector{MatchExpressions: []LabelSelectorRequirement{
		{Key: "a", Operator: LabelSelectorOpExists, Values: []string{"x"}}}})
	require.Error(t, err)
}

func TestRequiresExactMatchFindsEqualityAndSingletonIn(t *testing.T) {
	s, err := ParseSelector("a=1,b in (2),c in (3,4),d!=5")
	require.NoError(t, err)
	rs := s.(Requirements)
	for key, want := range map[string]string{"a": "1", "b": "2"} {
		v, ok := rs.RequiresExactMatch(key)
		assert.True(t, ok, key)
		assert.Equal(t, want, v)
	}
	for _, key := range []string{"c", "d", "zz"} {
		_, ok := rs.RequiresExactMatch(key)
		assert.False(t, ok, key)
	}
}
