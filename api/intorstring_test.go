package api

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIntOrStringJSONKeepsWhichItHolds(t *testing.T) {
	for _, tc := range []struct {
		wire string
		want IntOrString
	}{
		{`8080`, FromInt32(8080)},
		{`"http"`, FromString("http")},
		{`"25%"`, FromString("25%")},
		{`-1`, FromInt32(-1)},
	} {
		var got IntOrString
		require.NoError(t, json.Unmarshal([]byte(tc.wire), &got), tc.wire)
		assert.Equal(t, tc.want, got, tc.wire)
		out, err := json.Marshal(got)
		require.NoError(t, err)
		assert.Equal(t, tc.wire, string(out))
	}
}

func TestIntOrStringRejectsOtherJSON(t *testing.T) {
	for _, wire := range []string{`1.5`, `true`, `{}`, `4294967296`} {
		var got IntOrString
		assert.Error(t, json.Unmarshal([]byte(wire), &got), wire)
	}
}

func TestFieldsV1KeepsRawJSON(t *testing.T) {
	var f struct {
		F *FieldsV1 `json:"f,omitempty"`
	}
	in := `{"f":{"f:data":{"f:a":{}}}}`
	require.NoError(t, json.Unmarshal([]byte(in), &f))
	assert.Equal(t, `{"f:data":{"f:a":{}}}`, string(f.F.Raw))
	out, err := json.Marshal(f)
	require.NoError(t, err)
	assert.Equal(t, in, string(out))
}
