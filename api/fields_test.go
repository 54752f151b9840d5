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

func TestParseFieldSelectorRejectsMalformedTerms(t *testing.T) {
	for _, bad := range []string{"metadata.name", "a=1,b", `a=x\y`, "a>1", `a=x\`} {
		_, err := ParseFieldSelector(bad)
		assert.Error(t, err, bad)
	}
	_, err := ParseFieldSelector("a=1,oops")
	require.ErrorContains(t, err, `"oops"`)
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
