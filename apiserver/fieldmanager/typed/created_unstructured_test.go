package typed

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// widgetType is what customresource.TypedSchema makes of a CRD's schema:
// a struct of declared fields, list-map and set lists, a map, an untyped
// value, and a status.
func widgetType() *Type {
	str := &Type{Kind: Scalar, ScalarType: "string"}
	num := &Type{Kind: Scalar, ScalarType: "numeric"}
	untyped := &Type{Kind: Untyped}
	port := &Type{Kind: Struct, Fields: map[string]*Type{"name": str, "port": num, "protocol": str}}
	spec := &Type{Kind: Struct, Fields: map[string]*Type{
		"color": str, "replicas": num, "ratio": num, "none": str, "free": untyped,
		"ports":   {Kind: List, ListType: ListMap, Keys: []string{"name", "protocol"}, KeyDefaults: map[string]any{"protocol": "TCP"}, Elem: port},
		"tags":    {Kind: List, ListType: ListSet, Elem: str},
		"args":    {Kind: List, ListType: ListAtomic, Elem: str},
		"labels":  {Kind: Map, Elem: str},
		"fixed":   {Kind: Struct, Atomic: true, Fields: map[string]*Type{"a": str}},
		"nested":  {Kind: Struct, Fields: map[string]*Type{"inner": {Kind: Struct, Fields: map[string]*Type{"x": num}}}},
		"unknown": {Kind: Struct, Fields: map[string]*Type{}, Elem: untyped},
	}}
	return &Type{Kind: Struct, Fields: map[string]*Type{
		"apiVersion": str, "kind": str, "metadata": TypeFor(reflect.TypeFor[api.ObjectMeta]()),
		"spec": spec, "status": {Kind: Struct, Fields: map[string]*Type{"replicas": num}},
	}}
}

func TestCreatedFieldsOfCustomResources(t *testing.T) {
	leave := fieldpath.NewSet(fieldpath.MakePath("apiVersion"), fieldpath.MakePath("kind"),
		fieldpath.MakePath("metadata", "name"), fieldpath.MakePath("status"))
	parents := fieldpath.NewSet(fieldpath.MakePath("metadata"))
	meta := api.ObjectMeta{Name: "w", Namespace: "ns", Labels: map[string]string{"app": "w"}, Finalizers: []string{"f"}}
	contents := []map[string]any{
		{},
		{"spec": map[string]any{}},
		{"spec": map[string]any{"color": "red", "replicas": int64(3), "ratio": 0.5}},
		{"spec": map[string]any{"color": "red", "replicas": int64(3), "free": map[string]any{"a": []any{int64(1)}},
			"ports": []any{map[string]any{"name": "http", "port": int64(80)}, map[string]any{"name": "dns", "protocol": "UDP", "port": int64(53)}},
			"tags":  []any{"b", "a", "b"}, "args": []any{"x", "y"}, "labels": map[string]any{"z": "1", "a": "2"},
			"fixed": map[string]any{"a": "b"}, "nested": map[string]any{"inner": map[string]any{"x": 1.5}},
			"unknown": map[string]any{"anything": map[string]any{"deep": true}}, "none": nil},
			"status": map[string]any{"replicas": int64(1)}},
		{"spec": map[string]any{"ports": []any{}, "tags": []any{}, "labels": map[string]any{}, "nested": map[string]any{}}},
		{"spec": map[string]any{"ports": []any{map[string]any{"name": "a"}, map[string]any{"name": "a"}}}}, // a repeated key
		{"spec": map[string]any{"ports": []any{map[string]any{"port": int64(1)}}}},                         // no key at all
		{"spec": map[string]any{"color": int64(1)}},                                                        // the wrong kind
		{"spec": map[string]any{"undeclared": "x"}},                                                        // not in the schema
		{"spec": "not an object"},
		{"other": int64(1)},
	}
	schema, fast := widgetType(), 0
	for i, content := range contents {
		u := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, ObjectMeta: meta, Content: content}
		got, ok := CreatedFields(u, schema, leave, parents)
		cmp, err := CompareObjects(&api.Unstructured{}, u, schema)
		if err != nil {
			assert.False(t, ok, "content %d: the plain path fails (%v), so the walk must not be sure", i, err)
			continue
		}
		if !ok {
			continue
		}
		fast++
		want, err := cmp.Added.Union(cmp.Modified).RecursiveDifference(leave).Difference(parents).ToJSON()
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "content %d", i)
	}
	assert.GreaterOrEqual(t, fast, 5, "the plain custom resources take the fast path")
}
