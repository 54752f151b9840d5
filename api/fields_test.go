package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFieldSelectorMatches(t *testing.T) {
	cases := []struct {
		selector string
		fields   map[string]string
		want     bool
	}{
		{"", map[string]string{"metadata.name": "x"}, true},
		{"metadata.name=x", map[string]string{"metadata.name": "x"}, true},
		{"metadata.name==x", map[string]string{"metadata.name": "x"}, true},
		{"metadata.name=x", map[string]string{"metadata.name": "y"}, false},
		{"metadata.name!=x", map[string]string{"metadata.name": "y"}, true},
		{"spec.nodeName=", map[string]string{"spec.nodeName": ""}, true},
		{"spec.nodeName=", map[string]string{}, true},
		{"spec.nodeName!=", map[string]string{"spec.nodeName": "n1"}, true},
		{"spec.nodeName!=", map[string]string{"spec.nodeName": ""}, false},
		{"a=1,b=2", map[string]string{"a": "1", "b": "2"}, true},
		{"a=1,b=2", map[string]string{"a": "1", "b": "3"}, false},
		{`a=x\,y`, map[string]string{"a": "x,y"}, true},
		{`a=x\=y`, map[string]string{"a": "x=y"}, true},
		{"a=1,", map[string]string{"a": "1"}, true},
	}
	for _, c := range cases {
		t.Run(c.selector, func(t *testing.T) {
			s, err := ParseFieldSelector(c.selector)
			require.NoError(t, err)
			assert.Equal(t, c.want, s.Matches(c.fields))
		})
	}
}

// The messages are Kubernetes' (apimachinery v0.37.2 fields.ParseSelector);
// the terms are read in sorted order, so "z,a" complains about "a".
func TestParseFieldSelectorRejectsWithKubernetesMessages(t *testing.T) {
	cases := map[string]string{
		"metadata.name": "invalid selector: 'metadata.name'; can't understand 'metadata.name'",
		"a=1,b":         "invalid selector: 'a=1,b'; can't understand 'b'",
		"a=1,oops":      "invalid selector: 'a=1,oops'; can't understand 'oops'",
		"z,a":           "invalid selector: 'z,a'; can't understand 'a'",
		"a>1":           "invalid selector: 'a>1'; can't understand 'a>1'",
		`a=x\y`:         `invalid field selector: invalid escape sequence: \y`,
		`a=é\é`:         `invalid field selector: invalid escape sequence: \é`,
		`a=x\`:          `invalid field selector: invalid escape sequence: \`,
		"a=b=c":         "invalid field selector: unescaped character in value: 61",
		// A field has no escapes: the first '=' ends it.
		`a\=b=c`: "invalid field selector: unescaped character in value: 61",
	}
	for in, want := range cases {
		_, err := ParseFieldSelector(in)
		require.Error(t, err, in)
		assert.Equal(t, want, err.Error(), in)
	}
}

// Like Kubernetes, the parser takes the field as written (spaces included)
// and drops a clause whose field and value are both empty.
func TestParseFieldSelectorKeepsTheFieldAsWrittenAndDropsEmptyClauses(t *testing.T) {
	s, err := ParseFieldSelector("a =b")
	require.NoError(t, err)
	assert.Equal(t, FieldRequirements{{Field: "a ", Operator: SelectionEquals, Value: "b"}}, s)
	assert.False(t, s.Matches(map[string]string{"a": "b"}))

	// Found by FuzzParseFieldSelector: trimming made the field "a!", whose
	// rendering "a!=" parsed back as a different selector.
	s, err = ParseFieldSelector("a! =")
	require.NoError(t, err)
	assert.Equal(t, "a! =", s.String())
	again, err := ParseFieldSelector(s.String())
	require.NoError(t, err)
	assert.Equal(t, s, again)

	for _, everything := range []string{"=", "!=", "==,=", ",,"} {
		s, err := ParseFieldSelector(everything)
		require.NoError(t, err, everything)
		assert.True(t, s.Empty(), everything)
	}
}

func TestFieldSelectorStringRoundTrips(t *testing.T) {
	for in, want := range map[string]string{
		"b=2,a=1":            "a=1,b=2",
		"a==1":               "a=1",
		"spec.nodeName!=":    "spec.nodeName!=",
		`a=x\,y`:             `a=x\,y`,
		"metadata.name=web-": "metadata.name=web-",
	} {
		s, err := ParseFieldSelector(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, s.String())
		again, err := ParseFieldSelector(s.String())
		require.NoError(t, err)
		assert.Equal(t, s, again)
	}
}

func TestFieldSelectorRequiresExactMatch(t *testing.T) {
	s, err := ParseFieldSelector("metadata.name=web,spec.nodeName!=n1")
	require.NoError(t, err)
	v, ok := s.RequiresExactMatch("metadata.name")
	assert.True(t, ok)
	assert.Equal(t, "web", v)
	_, ok = s.RequiresExactMatch("spec.nodeName")
	assert.False(t, ok)
	_, ok = s.RequiresExactMatch("status.phase")
	assert.False(t, ok)
}

func TestFieldSelectorFromSetAndEverything(t *testing.T) {
	s := FieldSelectorFromSet(map[string]string{"metadata.name": "a", "metadata.namespace": "ns"})
	assert.Equal(t, "metadata.name=a,metadata.namespace=ns", s.String())
	assert.True(t, s.Matches(map[string]string{"metadata.name": "a", "metadata.namespace": "ns"}))
	assert.False(t, s.Matches(map[string]string{"metadata.name": "a", "metadata.namespace": "other"}))
	assert.True(t, EverythingFields().Empty())
	assert.True(t, EverythingFields().Matches(nil))
	assert.False(t, s.Empty())
}
