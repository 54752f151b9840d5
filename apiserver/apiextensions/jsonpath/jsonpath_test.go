package jsonpath

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFindFollowsFieldsIndexesAndWildcards(t *testing.T) {
	obj := map[string]any{"spec": map[string]any{
		"replicas": int64(3),
		"ports":    []any{map[string]any{"name": "http"}, map[string]any{"name": "https"}},
		"labels":   map[string]any{"b": "2", "a": "1"},
	}}
	cases := []struct {
		path string
		want []any
	}{
		{".spec.replicas", []any{int64(3)}},
		{"{.spec.replicas}", []any{int64(3)}},
		{".spec.ports[1].name", []any{"https"}},
		{".spec.ports[-1].name", []any{"https"}},
		{".spec.ports[*].name", []any{"http", "https"}},
		{".spec.labels[*]", []any{"1", "2"}},
		{".spec['replicas']", []any{int64(3)}},
		{".spec.missing", nil},
		{".spec.ports[5]", nil},
	}
	for _, c := range cases {
		p, err := Parse(c.path)
		require.NoError(t, err, c.path)
		assert.Equal(t, c.want, p.Find(obj), c.path)
	}
}

func TestParseRefusesWhatItCannotEvaluate(t *testing.T) {
	for _, bad := range []string{".spec[?(@.x)]", ".spec..x", ".spec[1:2]", "spec", ".a[0"} {
		_, err := Parse(bad)
		assert.Error(t, err, bad)
	}
}

func TestFieldNamesOnlyForPlainPaths(t *testing.T) {
	p, _ := Parse(".spec.replicas")
	names, ok := p.FieldNames()
	assert.True(t, ok)
	assert.Equal(t, []string{"spec", "replicas"}, names)
	p, _ = Parse(".spec.ports[0]")
	_, ok = p.FieldNames()
	assert.False(t, ok)
}
