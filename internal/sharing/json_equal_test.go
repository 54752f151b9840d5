package sharing

import (
	"math"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEqualMapsIsDeepEqual(t *testing.T) {
	values := []any{
		map[string]any{}, map[string]any(nil), map[string]any{"a": int64(1)}, map[string]any{"a": 1.0}, map[string]any{"a": int64(2)},
		map[string]any{"a": []any{"x", true, nil}}, map[string]any{"a": []any{"x", true}}, map[string]any{"a": []any(nil)},
		map[string]any{"a": []any{}}, map[string]any{"a": map[string]any{"b": "c"}}, map[string]any{"a": map[string]any{"b": "d"}},
		map[string]any{"a": map[string]any(nil)}, map[string]any{"a": math.NaN()}, map[string]any{"a": 1}, map[string]any{"a": []string{"x"}},
		map[string]any{"a": nil}, map[string]any{"b": nil}, map[string]any{"a": map[string]any{"n": math.NaN()}},
		map[string]any{"a": []any{math.NaN()}},
	}
	for _, x := range values {
		for _, y := range values {
			eq, ok := equalMaps(reflect.ValueOf(x), reflect.ValueOf(y))
			assert.True(t, ok)
			assert.Equal(t, reflect.DeepEqual(x, y), eq, "%#v vs %#v", x, y)
		}
	}
	labels := []map[string]string{{}, {"a": "b"}, {"a": "c"}, {"b": "b"}, {"a": "b", "c": "d"}}
	for _, x := range labels {
		for _, y := range labels {
			eq, ok := equalMaps(reflect.ValueOf(x), reflect.ValueOf(y))
			assert.True(t, ok)
			assert.Equal(t, reflect.DeepEqual(x, y), eq, "%v vs %v", x, y)
		}
	}
}
