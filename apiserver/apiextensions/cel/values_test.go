package cel

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toCEL shares what already holds its declared type and copies only the
// maps and lists above a converted value; the input is never written.
func TestToCELCopiesOnlyAboveWhatItConverts(t *testing.T) {
	v := newCompiler(t).NewValidator(structural(t, crontab(`[{"rule":"self.replicas >= 0"}]`)), false)
	require.NotNil(t, v)
	d := v.properties["spec"].compiled.decl
	same := func(a, b any) bool { return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer() }

	typed := value(t, `{"replicas":3,"name":"a","ports":[{"name":"http","port":80}],"labels":{"a":"b"},"tags":["x"]}`).(map[string]any)
	assert.True(t, same(typed, toCEL(typed, d)), "nothing to convert: the object itself")

	in := value(t, `{"replicas":3,"price":2,"when":"2026-01-02T03:04:05Z","timeout":"bad",
		"ports":[{"name":"http","port":80},{"name":"dns","port":53.0}],"labels":{"a":"b"}}`).(map[string]any)
	out := toCEL(in, d).(map[string]any)
	require.False(t, same(in, out))
	assert.Equal(t, float64(2), out["price"], "a number field holds a float64")
	assert.IsType(t, time.Time{}, out["when"], "a date-time string a time")
	assert.Equal(t, "bad", out["timeout"], "a duration that does not parse stays a string")
	ports := out["ports"].([]any)
	assert.Equal(t, int64(53), ports[1].(map[string]any)["port"], "an integer field holds an int64 even for 53.0")
	assert.True(t, same(in["ports"].([]any)[0], ports[0]), "the unchanged item is shared")
	assert.True(t, same(in["labels"], out["labels"]), "the unchanged map is shared")

	assert.Equal(t, int64(2), in["price"], "the input keeps its values")
	assert.Equal(t, "2026-01-02T03:04:05Z", in["when"])
	assert.Equal(t, float64(53), in["ports"].([]any)[1].(map[string]any)["port"])
}
