package api

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The maps written as themselves give appendMap's general bytes: more
// keys than the array on the stack, one key, keys that sort differently
// by byte than by rune, empty values and quantities.
func TestAppendKnownMapIsAppendMap(t *testing.T) {
	many := map[string]string{}
	for i := range 40 {
		many[fmt.Sprintf("key-%d", 40-i)] = fmt.Sprint(i)
	}
	cases := map[string]reflect.Value{
		"many labels":   reflect.ValueOf(&ObjectMeta{Labels: many}).Elem(),
		"one label":     reflect.ValueOf(&ObjectMeta{Labels: map[string]string{"a": "b"}}).Elem(),
		"odd keys":      reflect.ValueOf(&ObjectMeta{Annotations: map[string]string{"é": "", "z": "x", "Z": "", "": "empty key"}}).Elem(),
		"requests":      reflect.ValueOf(&ResourceRequirements{Requests: ResourceList{"memory": "1Gi", "cpu": "100m", "x": ""}}).Elem(),
		"config data":   reflect.ValueOf(&ConfigMap{Data: many}).Elem(),
		"node selector": reflect.ValueOf(&PodSpec{NodeSelector: map[string]string{"kubernetes.io/os": "linux"}}).Elem(),
	}
	for name, v := range cases {
		t.Run(name, func(t *testing.T) {
			plan, err := planFor(v.Type())
			require.NoError(t, err)
			maps := 0
			for i := range plan.fields {
				f := &plan.fields[i]
				if f.card != protoMap || v.Field(f.index).Len() == 0 {
					continue
				}
				maps++
				fast, ok := appendKnownMap(nil, f, v.Field(f.index))
				require.True(t, ok, f.name)
				assert.Equal(t, appendMapByReflect(nil, f, v.Field(f.index)), fast, f.name)
			}
			assert.Equal(t, 1, maps)
		})
	}
}
