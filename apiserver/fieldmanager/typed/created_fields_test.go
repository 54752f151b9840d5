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

// Map lists named by plain keys (plain_keys.go) and by keys it leaves to
// itemKeys are written as CompareObjects finds them: ports by number and
// protocol (the default where left out, numbers ordered as numbers), env
// by names that need escaping, one of the two kinds here and another there;
// and maps of strings (string_maps.go) by their sorted keys.
func TestCreatedFieldsOfKeyedLists(t *testing.T) {
	ports := func(ps ...api.ContainerPort) *api.Pod {
		return &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Ports: ps}}}}
	}
	env := func(names ...string) *api.Pod {
		c := api.Container{Name: "c"}
		for _, n := range names {
			c.Env = append(c.Env, api.EnvVar{Name: n, Value: "v"})
		}
		return &api.Pod{Spec: api.PodSpec{Containers: []api.Container{c}}}
	}
	pods := []*api.Pod{
		ports(api.ContainerPort{ContainerPort: 8080, Protocol: "UDP"}, api.ContainerPort{ContainerPort: 80, Protocol: "UDP"},
			api.ContainerPort{ContainerPort: 80, Protocol: "TCP"}, api.ContainerPort{ContainerPort: 9, Name: "n"},
			api.ContainerPort{ContainerPort: -3, Protocol: "SCTP"}),
		ports(api.ContainerPort{ContainerPort: 0, Protocol: "TCP"}, api.ContainerPort{ContainerPort: 1, Protocol: "TCP"}),
		ports(api.ContainerPort{ContainerPort: 0, Protocol: "TCP"}),
		env("b", "a", "c"),
		env(`a"b`, "a"),
		env("<x>", "a&b", "z"),
		env("é", "a"),
		env("", "a"),
		{Spec: api.PodSpec{Containers: []api.Container{{Name: "b"}, {Name: "a", Ports: []api.ContainerPort{{ContainerPort: 2}, {ContainerPort: 1}}}},
			Volumes: []api.Volume{{Name: "v2"}, {Name: "v1"}}}},
		{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"b": "1", "a": "", "app.kubernetes.io/name": "x", "c": "3"},
			Annotations: map[string]string{`a"b`: "1", "<": "2", "z": "3", "é": "4"}},
			Spec: api.PodSpec{NodeSelector: map[string]string{"zone": "a", "disk": "ssd"}}},
	}
	// the default makes the first port's key the second's: Compare's case
	repeated := ports(api.ContainerPort{ContainerPort: 80}, api.ContainerPort{ContainerPort: 80, Protocol: "TCP"})
	_, ok := CreatedFields(repeated, ForObject(repeated), nil, nil)
	assert.False(t, ok, "a key repeated through its default")
	for _, pod := range pods {
		schema := ForObject(pod)
		cmp, err := CompareObjects(&api.Pod{}, pod, schema)
		got, ok := CreatedFields(pod, schema, nil, nil)
		if err != nil {
			assert.False(t, ok, "%+v: the plain path fails (%v)", pod.Spec, err)
			continue
		}
		require.True(t, ok, "%+v", pod.Spec)
		want, err := cmp.Added.Union(cmp.Modified).ToJSON()
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%+v", pod.Spec)
	}
}
