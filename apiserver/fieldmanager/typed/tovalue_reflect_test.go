package typed

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// fill sets every exported field of v it can reach, to depth levels:
// strings "x", numbers 7, true, one element per slice and map, pointers
// allocated. Types that write themselves stay zero (their output is not
// ours to invent) except through the example objects below.
func fill(v reflect.Value, depth int) {
	if depth == 0 {
		return
	}
	t := v.Type()
	if t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) {
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(t.Elem()))
		fill(v.Elem(), depth-1)
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				fill(v.Field(i), depth-1)
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(t, 1, 1))
		fill(v.Index(0), depth-1)
	case reflect.Map:
		v.Set(reflect.MakeMap(t))
		k := reflect.New(t.Key()).Elem()
		fill(k, depth-1)
		e := reflect.New(t.Elem()).Elem()
		fill(e, depth-1)
		v.SetMapIndex(k, e)
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	}
}

func TestToValueByReflectionEqualsJSON(t *testing.T) {
	objs := []any{examplePod(), &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "x/v1", Kind: "W"},
		ObjectMeta: api.ObjectMeta{Name: "w"}, Content: map[string]any{"spec": map[string]any{"n": int64(3), "f": 1.5}}},
		api.Unstructured{TypeMeta: api.TypeMeta{Kind: "W"}, ObjectMeta: api.ObjectMeta{Name: "v", Labels: map[string]string{"a": "b"},
			ManagedFields: []api.ManagedFieldsEntry{{Manager: "m", FieldsType: "FieldsV1", FieldsV1: &api.FieldsV1{Raw: []byte(`{"f:spec":{}}`)}}}},
			Content: map[string]any{"kind": "shadowed", "spec": map[string]any{"l": []any{int64(1), 2.5e20, "s", true, nil, map[string]any{}, []any{}},
				"nilMap": map[string]any(nil), "nilList": []any(nil), "int": 7, "strs": []string{"x"}}, "status": nil}}}
	for _, info := range api.Builtin().All() {
		objs = append(objs, info.New())
		filled := info.New()
		fill(reflect.ValueOf(filled).Elem(), 12)
		objs = append(objs, filled)
	}
	for _, obj := range objs {
		want, err := toValueByJSON(obj)
		require.NoError(t, err)
		got, err := toValueByReflection(obj)
		require.NoError(t, err)
		assert.Equal(t, want, got, "%T", obj)
	}
}

func TestToValueWithoutManagedFieldsDropsOnlyThem(t *testing.T) {
	pod := examplePod()
	pod.ManagedFields = []api.ManagedFieldsEntry{{Manager: "m", FieldsType: "FieldsV1", FieldsV1: &api.FieldsV1{Raw: []byte(`{"f:spec":{}}`)}}}
	want, err := toValueByJSON(pod)
	require.NoError(t, err)
	delete(want.(map[string]any)["metadata"].(map[string]any), "managedFields")
	got, err := ToValueWithoutManagedFields(pod)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	u := &api.Unstructured{ObjectMeta: pod.ObjectMeta, Content: map[string]any{"spec": map[string]any{}}}
	got, err = ToValueWithoutManagedFields(u)
	require.NoError(t, err)
	assert.NotContains(t, got.(map[string]any)["metadata"], "managedFields", "a type that writes itself too")
}
