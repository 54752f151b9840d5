package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A selector that parses holds only valid keys and values, renders to a
// string that parses to the same selector, and the two select alike.
//
//	go test -run '^$' -fuzz '^FuzzParseSelector$' -fuzztime 30s ./api
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{"", "app=web", "a in (in,notin),!b,c notin ()", "x>1,y<-1", "k8s.io/name==v", "a=(", "a in (b,,c)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelector(s)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		probe := map[string]string{}
		for _, r := range sel.(Requirements) {
			require.Empty(t, IsQualifiedName(r.Key), "key %q of %q", r.Key, s)
			for _, v := range r.Values {
				require.Empty(t, IsValidLabelValue(v), "value %q of %q", v, s)
				probe[r.Key] = v
			}
		}
		again, err := ParseSelector(sel.String())
		require.NoError(t, err, "%q renders as %q", s, sel.String())
		assert.Equal(t, sel.String(), again.String())
		assert.Equal(t, sel.Matches(probe), again.Matches(probe))
		assert.Equal(t, sel.Matches(nil), again.Matches(nil))
	})
}
