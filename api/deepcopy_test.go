package api

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fill sets every reachable field of v to a non-zero value derived from a
// counter, so two fills from the same start are equal and every field of
// a kind is exercised without listing it.
func fill(t *testing.T, v reflect.Value, n *int) {
	*n++
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(time.Unix(int64(1_700_000_000+*n), 0).UTC()))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			require.True(t, v.Type().Field(i).IsExported(), "unexported field %s.%s", v.Type(), v.Type().Field(i).Name)
			fill(t, v.Field(i), n)
		}
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(t, p.Elem(), n)
		v.Set(p)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 2 {
			k := reflect.New(v.Type().Key()).Elem()
			fill(t, k, n)
			e := reflect.New(v.Type().Elem()).Elem()
			fill(t, e, n)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(t, s.Index(i), n)
		}
		v.Set(s)
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint8:
		v.SetUint(uint64(*n % 256))
	default:
		t.Fatalf("fill: unhandled kind %s (%s)", v.Kind(), v.Type())
	}
}

// mutate changes every reachable value of v in place, following pointers,
// map values and slice elements: anything the copy still shares with the
// original shows up as a change in the original.
func mutate(t *testing.T, v reflect.Value) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Hour)))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			mutate(t, v.Field(i))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			mutate(t, v.Elem())
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			mutate(t, e)
			v.SetMapIndex(k, e)
		}
		extraKey := reflect.New(v.Type().Key()).Elem()
		fill(t, extraKey, new(int))
		extraKey.SetString("added-by-mutate")
		v.SetMapIndex(extraKey, reflect.New(v.Type().Elem()).Elem())
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			mutate(t, v.Index(i))
		}
	case reflect.String:
		v.SetString(v.String() + "-mutated")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint8:
		v.SetUint(v.Uint() + 1)
	default:
		t.Fatalf("mutate: unhandled kind %s (%s)", v.Kind(), v.Type())
	}
}

// deepCopyTargets is every type that must deep-copy: each registered kind,
// its list, and the bodies that travel without being stored.
func deepCopyTargets() map[string]func() any {
	targets := map[string]func() any{
		"Binding":        func() any { return &Binding{} },
		"Scale":          func() any { return &Scale{} },
		"DeleteOptions":  func() any { return &DeleteOptions{} },
		"Status":         func() any { return &Status{} },
		"PodList":        func() any { return &PodList{} },
		"ReplicaSetList": func() any { return &ReplicaSetList{} },
	}
	for _, info := range Builtin().All() {
		targets[info.Kind] = func() any { return info.New() }
	}
	return targets
}

func deepCopyOf(t *testing.T, obj any) any {
	if o, ok := obj.(Object); ok {
		return o.DeepCopyObject()
	}
	m := reflect.ValueOf(obj).MethodByName("DeepCopy")
	require.True(t, m.IsValid(), "%T has no DeepCopy", obj)
	return m.Call(nil)[0].Interface()
}

func TestDeepCopySharesNoMemoryForEveryField(t *testing.T) {
	for name, newObj := range deepCopyTargets() {
		t.Run(name, func(t *testing.T) {
			original, pristine := newObj(), newObj()
			n := 0
			fill(t, reflect.ValueOf(original).Elem(), &n)
			n = 0
			fill(t, reflect.ValueOf(pristine).Elem(), &n)
			require.Equal(t, pristine, original)

			copied := deepCopyOf(t, original)
			require.Equal(t, reflect.TypeOf(original), reflect.TypeOf(copied))
			require.True(t, reflect.DeepEqual(original, copied), "the copy differs from the original before any change")

			mutate(t, reflect.ValueOf(copied).Elem())
			assert.False(t, reflect.DeepEqual(original, copied), "mutate changed nothing")
			assert.True(t, reflect.DeepEqual(pristine, original), "changing the copy changed the original")
		})
	}
}

func TestDeepCopyKeepsNilsNil(t *testing.T) {
	for name, newObj := range deepCopyTargets() {
		obj := newObj()
		assert.Equal(t, obj, deepCopyOf(t, obj), name)
	}
}
