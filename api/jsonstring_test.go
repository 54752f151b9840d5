package api

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The direct paths must give byte for byte what encoding/json gives, for
// the plain strings they take and for those they hand back.
func TestQuoteAndUnquoteMatchEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "100m", "2026-11-29T12:00:00Z", `a"b`, `back\slash`, "tab\there",
		"<html>&", "ünïcode", "\x01", "emoji 🙂", "\u2028"} {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(quoteJSON(nil, s)), "quote %q", s)

		got, err := unquoteJSON(want)
		require.NoError(t, err)
		assert.Equal(t, s, got, "unquote %s", want)
	}
	for _, raw := range []string{`5`, `null`, `{}`, `"unterminated`, `"bad \q escape"`, `"raw` + "\n" + `newline"`} {
		var want string
		wantErr := json.Unmarshal([]byte(raw), &want)
		got, err := unquoteJSON([]byte(raw))
		assert.Equal(t, wantErr != nil, err != nil, "error for %s: %v vs %v", raw, err, wantErr)
		assert.Equal(t, want, got, raw)
	}
}
