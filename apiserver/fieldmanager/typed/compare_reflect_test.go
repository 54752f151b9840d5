package typed

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// mutation changes the n-th place of an object that it can change, and
// reports whether there was one.
type mutation func(v reflect.Value, n *int) bool

// mutate walks v in field order and applies change at the n-th place it
// fits (counting down n); types that write themselves are left alone.
func mutate(v reflect.Value, n *int, change func(reflect.Value) bool) bool {
	t := v.Type()
	if t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) {
		return false
	}
	if change(v) {
		if *n == 0 {
			return true
		}
		*n--
		return false
	}
	switch t.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			return mutate(v.Elem(), n, change)
		}
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() && mutate(v.Field(i), n, change) {
				return true
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			if mutate(v.Index(i), n, change) {
				return true
			}
		}
	case reflect.Map:
		// map values are not settable: rebuild the map around a copy
		for _, k := range v.MapKeys() {
			e := reflect.New(t.Elem()).Elem()
			e.Set(v.MapIndex(k))
			if mutate(e, n, change) {
				v.SetMapIndex(k, e)
				return true
			}
		}
	}
	return false
}

// changes are the edits an update makes: a scalar changed, a list, map or
// pointer dropped, a list element or map entry added.
var changes = map[string]func(reflect.Value) bool{
	"scalar": func(v reflect.Value) bool {
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "y")
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(v.Int() + 1)
		default:
			return false
		}
		return true
	},
	"drop": func(v reflect.Value) bool {
		switch v.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer:
			if v.IsNil() {
				return false
			}
			v.Set(reflect.Zero(v.Type()))
			return true
		}
		return false
	},
	"add": func(v reflect.Value) bool {
		switch v.Kind() {
		case reflect.Slice:
			if v.Len() == 0 || v.Type().Elem().Kind() == reflect.Uint8 {
				return false
			}
			e := reflect.New(v.Type().Elem()).Elem()
			fill(e, 8)
			n := 0
			mutate(e, &n, func(s reflect.Value) bool {
				if s.Kind() == reflect.String {
					s.SetString("z")
				}
				return false
			})
			v.Set(reflect.Append(v, e))
			return true
		case reflect.Map:
			if v.Len() == 0 || v.Type().Key().Kind() != reflect.String {
				return false
			}
			e := reflect.New(v.Type().Elem()).Elem()
			fill(e, 8)
			v.SetMapIndex(reflect.ValueOf("added").Convert(v.Type().Key()), e)
			return true
		}
		return false
	},
}

func TestCompareObjectsEqualsCompareOfValues(t *testing.T) {
	objs := []api.Object{examplePod()}
	for _, info := range api.Builtin().All() {
		filled := info.New()
		fill(reflect.ValueOf(filled).Elem(), 10)
		objs = append(objs, filled)
	}
	cases := 0
	check := func(old, updated api.Object, what string) {
		t.Helper()
		schema := ForObject(old)
		want, wantErr := compareObjectsByValue(old, updated, schema)
		got, gotErr := compareObjectsByReflection(old, updated, schema)
		if wantErr != nil || gotErr != nil {
			assert.Equal(t, wantErr, gotErr, "%T %s", old, what)
			return
		}
		cases++
		assert.True(t, want.Added.Equals(got.Added), "%T %s added: want\n%s\ngot\n%s", old, what, want.Added, got.Added)
		assert.True(t, want.Removed.Equals(got.Removed), "%T %s removed: want\n%s\ngot\n%s", old, what, want.Removed, got.Removed)
		assert.True(t, want.Modified.Equals(got.Modified), "%T %s modified: want\n%s\ngot\n%s", old, what, want.Modified, got.Modified)
	}
	for _, obj := range objs {
		empty := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(api.Object)
		check(empty, obj, "create")
		check(obj, empty, "emptied")
		check(obj, obj.DeepCopyObject(), "unchanged")
		for name, change := range changes {
			// every place on the small pod, a few spread over the others
			// (the walk is the same for every kind; -race makes it slow)
			places := 1 << 30
			mutate(reflect.ValueOf(obj.DeepCopyObject()).Elem(), &places, change)
			places = 1<<30 - places
			step := max(1, places/5)
			if obj == objs[0] {
				step = 1
			}
			for i := 0; i < places; i += step {
				updated := obj.DeepCopyObject()
				n := i
				require.True(t, mutate(reflect.ValueOf(updated).Elem(), &n, change))
				check(obj, updated, name)
				check(updated, obj, name+" reversed")
			}
		}
	}
	require.Greater(t, cases, 300, "the mutations reached the objects' fields")
}

func TestCompareObjectsOfAnUpdatedPod(t *testing.T) {
	old := examplePod()
	updated := old.DeepCopyObject().(*api.Pod)
	updated.Spec.Containers[0].Image = "nginx:2"
	updated.Labels["tier"] = "front"
	updated.Spec.Containers[0].Ports = updated.Spec.Containers[0].Ports[1:]
	c, err := CompareObjects(old, updated, ForObject(old))
	require.NoError(t, err)
	assert.Equal(t, ".metadata.labels.tier\n", c.Added.String())
	assert.Equal(t, ".spec.containers[name=\"c\"].image\n", c.Modified.String())
	assert.Equal(t, ".spec.containers[name=\"c\"].ports[containerPort=80,protocol=\"TCP\"]\n"+
		".spec.containers[name=\"c\"].ports[containerPort=80,protocol=\"TCP\"].containerPort\n", c.Removed.String())
}

// hasNoMethods is only a shortcut: for every type reachable from a served
// kind (and a few it must not be fooled by) the answer is the lookup's.
func TestHasNoMethodsNeverHidesAWriter(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var visit func(reflect.Type)
	visit = func(ty reflect.Type) {
		if seen[ty] {
			return
		}
		seen[ty] = true
		if hasNoMethods(ty) {
			assert.False(t, implementsWriter(ty), "%v", ty)
		}
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			visit(ty.Elem())
		case reflect.Map:
			visit(ty.Key())
			visit(ty.Elem())
		case reflect.Struct:
			for i := range ty.NumField() {
				visit(ty.Field(i).Type)
			}
		}
	}
	for _, info := range api.Builtin().All() {
		visit(reflect.TypeOf(info.New()))
	}
	for _, ty := range []reflect.Type{reflect.TypeFor[[]api.Time](), reflect.TypeFor[map[string]api.Quantity](),
		reflect.TypeFor[*api.Time](), reflect.TypeFor[struct{ api.Time }]()} {
		visit(ty)
	}
	assert.True(t, implementsWriter(reflect.TypeFor[struct{ api.Time }]()), "the test must see a writer hidden in an unnamed struct")
	assert.Greater(t, len(seen), 100)
}

// Map lists whose keys are plain are matched by their key values
// (plain_keys.go): reordered, added, removed and changed elements, numbers
// against numbers, defaults, names that need escaping and a repeated key
// come out as the comparison of values finds them.
func TestCompareObjectsOfKeyedLists(t *testing.T) {
	pod := func(ports []api.ContainerPort, env ...string) *api.Pod {
		c := api.Container{Name: "c", Ports: ports}
		for _, n := range env {
			c.Env = append(c.Env, api.EnvVar{Name: n, Value: "v" + n})
		}
		return &api.Pod{Spec: api.PodSpec{Containers: []api.Container{c, {Name: "d"}}}}
	}
	port := func(n int32, proto api.Protocol) api.ContainerPort {
		return api.ContainerPort{ContainerPort: n, Protocol: proto}
	}
	pods := []*api.Pod{
		pod([]api.ContainerPort{port(80, "TCP"), port(80, "UDP"), port(8080, "TCP")}, "a", "b"),
		pod([]api.ContainerPort{port(8080, "TCP"), port(80, "TCP"), port(9, "TCP")}, "b", "a", "c"),
		pod([]api.ContainerPort{port(80, ""), port(443, "TCP")}, `a"b`, "<"),
		pod([]api.ContainerPort{port(80, "TCP"), {ContainerPort: 443, Protocol: "TCP", Name: "https"}}, "<", "é"),
		pod([]api.ContainerPort{port(80, ""), port(80, "TCP")}, "a", "a"),
		pod(nil, "x"),
	}
	cases := 0
	for _, old := range pods {
		for _, updated := range pods {
			schema := ForObject(old)
			want, wantErr := compareObjectsByValue(old, updated, schema)
			got, gotErr := compareObjectsByReflection(old, updated, schema)
			require.Equal(t, wantErr, gotErr)
			if wantErr != nil {
				continue
			}
			cases++
			assert.True(t, want.Added.Equals(got.Added), "added: want\n%s\ngot\n%s", want.Added, got.Added)
			assert.True(t, want.Removed.Equals(got.Removed), "removed: want\n%s\ngot\n%s", want.Removed, got.Removed)
			assert.True(t, want.Modified.Equals(got.Modified), "modified: want\n%s\ngot\n%s", want.Modified, got.Modified)
		}
	}
	assert.Greater(t, cases, 20)
}
