package typed

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// CreatedFields writes what CompareObjects of an empty object reports as
// added, less the left-out paths, for every served kind, empty and filled.
func TestCreatedFieldsEqualsCompareOfEmpty(t *testing.T) {
	leave := fieldpath.NewSet(fieldpath.MakePath("apiVersion"), fieldpath.MakePath("kind"),
		fieldpath.MakePath("metadata", "name"), fieldpath.MakePath("status"))
	parents := fieldpath.NewSet(fieldpath.MakePath("metadata"))
	objs := []any{examplePod()}
	for _, info := range api.Builtin().All() {
		objs = append(objs, info.New())
		for _, depth := range []int{3, 6, 12} {
			filled := info.New()
			fill(reflect.ValueOf(filled).Elem(), depth)
			objs = append(objs, filled)
		}
	}
	fast := map[string]bool{}
	for _, obj := range objs {
		schema := ForObject(obj)
		got, ok := CreatedFields(obj, schema, leave, parents)
		cmp, err := CompareObjects(reflect.New(reflect.TypeOf(obj).Elem()).Interface(), obj, schema)
		if err != nil {
			assert.False(t, ok, "%T: the plain path fails (%v), so the walk must not be sure", obj, err)
			continue
		}
		if !ok {
			continue
		}
		fast[reflect.TypeOf(obj).Elem().Name()] = true
		want, err := cmp.Added.Union(cmp.Modified).RecursiveDifference(leave).Difference(parents).ToJSON()
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%T", obj)
	}
	for _, kind := range []string{"Pod", "ConfigMap", "Deployment", "ReplicaSet", "Node", "Namespace", "Secret", "Lease"} {
		assert.True(t, fast[kind], "%s takes the fast path", kind)
	}
}

func TestCreatedFieldsGivesUpOnARepeatedKey(t *testing.T) {
	pod := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}, {Name: "a", Image: "x"}}}}
	_, ok := CreatedFields(pod, ForObject(pod), nil, nil)
	assert.False(t, ok, "a list with a repeated key is left to Compare, which knows what Kubernetes does")
}
