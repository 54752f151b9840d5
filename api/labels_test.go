package api

import (
	"strings"
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

// In Kubernetes "in" and "notin" are operators only right after a key;
// as a value, inside a value set, or as a key they are plain words.
// Every case was checked against apimachinery v0.37.2 labels.Parse.
func TestParseSelectorKeywordsAreOrdinaryWordsOutsideTheOperatorPosition(t *testing.T) {
	type labels = map[string]string
	cases := []struct {
		selector string
		want     string // String() of the parsed selector
		matches  labels
		misses   labels
	}{
		{"mv=in", "mv=in", labels{"mv": "in"}, labels{"mv": "x"}},
		{"mv==in", "mv=in", labels{"mv": "in"}, labels{}},
		{"mv!=in", "mv!=in", labels{"mv": "notin"}, labels{"mv": "in"}},
		{"mv=notin", "mv=notin", labels{"mv": "notin"}, labels{"mv": "in"}},
		{"mv in (in)", "mv in (in)", labels{"mv": "in"}, labels{"mv": "notin"}},
		{"mv in (in,notin)", "mv in (in,notin)", labels{"mv": "notin"}, labels{"mv": "x"}},
		{"mv notin (in)", "mv notin (in)", labels{"mv": "x"}, labels{"mv": "in"}},
		{"a  in  (  in  ,  notin  )", "a in (in,notin)", labels{"a": "in"}, labels{"in": "a"}},
		{"in", "in", labels{"in": ""}, labels{"notin": ""}},
		{"notin", "notin", labels{"notin": "x"}, labels{"in": "x"}},
		{"!in", "!in", labels{"notin": "x"}, labels{"in": "x"}},
		{"!notin", "!notin", labels{"in": "x"}, labels{"notin": ""}},
		{"in=x", "in=x", labels{"in": "x"}, labels{"in": "y"}},
		{"in=in", "in=in", labels{"in": "in"}, labels{"in": "x"}},
		{"notin=x", "notin=x", labels{"notin": "x"}, labels{"in": "x"}},
		{"in in (a)", "in in (a)", labels{"in": "a"}, labels{"in": "in"}},
		{"in notin (in)", "in notin (in)", labels{"in": "a"}, labels{"in": "in"}},
		{"in,notin", "in,notin", labels{"in": "", "notin": ""}, labels{"in": ""}},
		{"a,in", "a,in", labels{"a": "", "in": ""}, labels{"a": ""}},
		{"a=b,in=c", "a=b,in=c", labels{"a": "b", "in": "c"}, labels{"a": "b", "in": "b"}},
		{"x in (in),in notin (notin)", "in notin (notin),x in (in)", labels{"x": "in", "in": "x"}, labels{"x": "in", "in": "notin"}},
	}
	for _, c := range cases {
		t.Run(c.selector, func(t *testing.T) {
			s, err := ParseSelector(c.selector)
			require.NoError(t, err)
			assert.Equal(t, c.want, s.String())
			assert.True(t, s.Matches(c.matches), "should match %v", c.matches)
			assert.False(t, s.Matches(c.misses), "should not match %v", c.misses)
		})
	}
}

func TestParseSelectorEmptyValuesAndComparisons(t *testing.T) {
	cases := []struct {
		selector, want string
		labels         map[string]string
		matches        bool
	}{
		{"a in ()", "a in ()", map[string]string{"a": ""}, true},
		{"a in ()", "a in ()", map[string]string{"a": "x"}, false},
		{"x in (,)", "x in ()", map[string]string{"x": ""}, true},
		{"x in (a,)", "x in (,a)", map[string]string{"x": ""}, true},
		{"x in (foo,,baz),y,z notin ()", "x in (,baz,foo),y,z notin ()", map[string]string{"x": "", "y": "1"}, true},
		{"a=,b", "a=,b", map[string]string{"a": "", "b": "1"}, true},
		{"a in(b)", "a in (b)", map[string]string{"a": "b"}, true},
		{"a>1", "a>1", map[string]string{"a": "2"}, true},
		{"a>1", "a>1", map[string]string{"a": "1"}, false},
		{"a>1", "a>1", map[string]string{"a": "x"}, false},
		{"a>1", "a>1", nil, false},
		{"a<0", "a<0", map[string]string{"a": "-6"}, true}, // labels are not validated here
		{"a<10", "a<10", map[string]string{"a": "9"}, true},
	}
	for _, c := range cases {
		t.Run(c.selector, func(t *testing.T) {
			s, err := ParseSelector(c.selector)
			require.NoError(t, err)
			assert.Equal(t, c.want, s.String())
			assert.Equal(t, c.matches, s.Matches(c.labels))
		})
	}
}

// The messages are Kubernetes' (apimachinery v0.37.2 labels.Parse), quirks
// included: some say "found 'x' expected" without a comma, a bad key names
// the field path "<nil>", and only failures inside one requirement carry
// the "unable to parse requirement: " prefix.
func TestParseSelectorRejectsWithKubernetesMessages(t *testing.T) {
	const keyRule = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	const valueRule = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
	const ops = "in, notin, =, ==, !=, gt, lt"
	cases := []struct{ selector, want string }{
		// keywords where an operator or '(' is expected
		{"a in in", "unable to parse requirement: found 'in' expected: '('"},
		{"a in", "unable to parse requirement: found '' expected: '('"},
		{"a notin", "unable to parse requirement: found '' expected: '('"},
		{"in in", "unable to parse requirement: found '' expected: '('"},
		{"!a in (b)", "found 'in', expected: ',' or 'end of string'"},
		{"a=in=b", "found '=', expected: ',' or 'end of string'"},
		// structure
		{"a in b", "unable to parse requirement: found 'b' expected: '('"},
		{"a in )", "unable to parse requirement: found ')' expected: '('"},
		{"a in (b", "unable to parse requirement: found '', expected: ',' or ')'"},
		{"a notin (in", "unable to parse requirement: found '', expected: ',' or ')'"},
		{"a in (b c)", "unable to parse requirement: found 'c', expected: ',' or ')'"},
		{"a in (b=c)", "unable to parse requirement: found '=', expected: ',' or ')'"},
		{"a in (b,", "unable to parse requirement: found '', expected: ',', or identifier"},
		{"a in (", "unable to parse requirement: found '', expected: ',', ')' or identifier"},
		{"a in (=", "unable to parse requirement: found '=', expected: ',', ')' or identifier"},
		{"a in (b))", "found ')', expected: ',' or 'end of string'"},
		{"a (b)", "unable to parse requirement: found '(', expected: " + ops},
		{"a b", "unable to parse requirement: found 'b', expected: " + ops},
		{"a!", "unable to parse requirement: found '!', expected: " + ops},
		{"ain (b)", "unable to parse requirement: found '(', expected: " + ops},
		{"a=b c", "found 'c', expected: ',' or 'end of string'"},
		{"a=b=c", "found '=', expected: ',' or 'end of string'"},
		{"a==b==c", "found '==', expected: ',' or 'end of string'"},
		{"!a=b", "found '=', expected: ',' or 'end of string'"},
		{"=b", "found '=', expected: !, identifier, or 'end of string'"},
		{",", "found ',', expected: !, identifier, or 'end of string'"},
		{"a,", "found '', expected: identifier after ','"},
		{"a=b,,c", "found ',', expected: identifier after ','"},
		{"!", "unable to parse requirement: found '', expected: identifier"},
		{"!!a", "unable to parse requirement: found '!', expected: identifier"},
		{"a=b,!", "unable to parse requirement: found '', expected: identifier"},
		{"a=(", "unable to parse requirement: found '(', expected: identifier"},
		{"a=!=b", "unable to parse requirement: found '!=', expected: identifier"},
		{"a===b", "unable to parse requirement: found '=', expected: identifier"},
		// keys and values
		{"-bad=1", `unable to parse requirement: <nil>: Invalid value: "-bad": ` + keyRule},
		{"/x=1", `unable to parse requirement: <nil>: Invalid value: "/x": prefix part must be non-empty`},
		{strings.Repeat("k", 64) + "=1", `unable to parse requirement: <nil>: Invalid value: "` + strings.Repeat("k", 64) + `": name part must be no more than 63 bytes`},
		{"a=-bad", `unable to parse requirement: values[0][a]: Invalid value: "-bad": ` + valueRule},
		{"a in (-x,-y)", `unable to parse requirement: [values[0][a]: Invalid value: "-x": ` + valueRule + `, values[1][a]: Invalid value: "-y": ` + valueRule + `]`},
		{"a in (-x,-x)", `unable to parse requirement: values[0][a]: Invalid value: "-x": ` + valueRule},
		{"a>x", `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"a<-5", `unable to parse requirement: values[0][a]: Invalid value: "-5": ` + valueRule},
		{"a>", `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`},
	}
	for _, c := range cases {
		t.Run(c.selector, func(t *testing.T) {
			_, err := ParseSelector(c.selector)
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
		})
	}
}

func TestNewRequirementReportsEveryProblemWithItsFieldPath(t *testing.T) {
	_, err := NewRequirement("-k", SelectionEquals, []string{"a", "-b"})
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), `[key: Invalid value: "-k": name part must consist`), err.Error())
	assert.Contains(t, err.Error(), `, values: Invalid value: ["a","-b"]: exact-match compatibility requires one single value, `)
	assert.Contains(t, err.Error(), `values[1][-k]: Invalid value: "-b": a valid label must be`)

	_, err = NewRequirement("k", SelectionIn, nil)
	require.EqualError(t, err, "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty")
	_, err = NewRequirement("k", "~", nil)
	require.ErrorContains(t, err, `operator: Unsupported value: "~": supported values: "in", "notin"`)
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
