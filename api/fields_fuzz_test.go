package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A field selector that parses renders to a string that parses back to the
// same selector.
//
//	go test -run '^$' -fuzz '^FuzzParseFieldSelector$' -fuzztime 30s ./api
func FuzzParseFieldSelector(f *testing.F) {
	for _, s := range []string{"", "metadata.name=x", `a=x\,y,b!=`, "spec.nodeName==n1", `a=\`, "a=1,oops", "a=b=c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseFieldSelector(s)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		again, err := ParseFieldSelector(sel.String())
		require.NoError(t, err, "%q renders as %q", s, sel.String())
		assert.Equal(t, sel, again, "%q renders as %q", s, sel.String())
	})
}
