package api

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnstructuredRoundTripsJSONWithTypedMetadata(t *testing.T) {
	in := `{"apiVersion":"example.com/v1","kind":"Foo","metadata":{"name":"a","namespace":"ns","labels":{"x":"y"},"bogus":1},` +
		`"spec":{"replicas":3,"ratio":0.5,"big":12345678901234567890,"tags":["a",null,true]}}`
	var u Unstructured
	require.NoError(t, json.Unmarshal([]byte(in), &u))
	assert.Equal(t, "example.com/v1", u.APIVersion)
	assert.Equal(t, "Foo", u.Kind)
	assert.Equal(t, "a", u.Name)
	assert.Equal(t, map[string]string{"x": "y"}, u.Labels)
	spec := u.Content["spec"].(map[string]any)
	assert.Equal(t, int64(3), spec["replicas"])
	assert.Equal(t, 0.5, spec["ratio"])
	assert.Equal(t, 1.2345678901234567e19, spec["big"], "an integer beyond int64 is a float64")
	assert.Equal(t, []any{"a", nil, true}, spec["tags"])

	out, err := json.Marshal(&u)
	require.NoError(t, err)
	assert.JSONEq(t, `{"apiVersion":"example.com/v1","kind":"Foo","metadata":{"name":"a","namespace":"ns","labels":{"x":"y"}},`+
		`"spec":{"replicas":3,"ratio":0.5,"big":12345678901234567000,"tags":["a",null,true]}}`, string(out),
		"unknown metadata fields are dropped, as Kubernetes' CR decoder drops them")
}

func TestUnstructuredRefusesWronglyTypedTopLevelFields(t *testing.T) {
	var u Unstructured
	assert.EqualError(t, json.Unmarshal([]byte(`{"kind":3}`), &u), "kind: must be a string, got number")
	assert.Error(t, json.Unmarshal([]byte(`{"metadata":{"name":1}}`), &u))
	assert.Error(t, json.Unmarshal([]byte(`[]`), &u))
}

func TestUnstructuredDeepCopyIsIndependent(t *testing.T) {
	u := &Unstructured{Content: map[string]any{"spec": map[string]any{"l": []any{int64(1)}}}}
	u.Labels = map[string]string{"a": "b"}
	c := u.DeepCopy()
	c.Content["spec"].(map[string]any)["l"].([]any)[0] = int64(2)
	c.Labels["a"] = "c"
	assert.Equal(t, int64(1), u.Content["spec"].(map[string]any)["l"].([]any)[0])
	assert.Equal(t, "b", u.Labels["a"])
}

func TestUnstructuredListMarshalsItemsWithTheirKind(t *testing.T) {
	l := &UnstructuredList{TypeMeta: TypeMeta{APIVersion: "example.com/v1", Kind: "FooList"}}
	l.SetItems([]Object{&Unstructured{TypeMeta: TypeMeta{APIVersion: "example.com/v1", Kind: "Foo"}, Content: map[string]any{"spec": map[string]any{}}}})
	out, err := json.Marshal(l)
	require.NoError(t, err)
	assert.JSONEq(t, `{"apiVersion":"example.com/v1","kind":"FooList","metadata":{},"items":[{"apiVersion":"example.com/v1","kind":"Foo","metadata":{},"spec":{}}]}`, string(out))
}

func TestNestedFieldAndSetNestedField(t *testing.T) {
	m := map[string]any{}
	SetNestedField(m, int64(5), "spec", "replicas")
	v, ok := NestedField(m, "spec", "replicas")
	assert.True(t, ok)
	assert.Equal(t, int64(5), v)
	_, ok = NestedField(m, "spec", "replicas", "x")
	assert.False(t, ok)
}
