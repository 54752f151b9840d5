package api

import (
	"fmt"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// filler sets every reachable field of a value to a non-zero value derived
// from a counter, so two fills are equal and every field of a kind is
// exercised without listing it. Slices and maps get length elements each;
// with length 0 they are empty but not nil.
type filler struct {
	t      *testing.T
	n      int
	length int
	seen   map[string]bool // names of this package's types it filled
	// open counts, per struct type, how many of its values are being
	// filled further up: a recursive type (a CRD's JSONSchemaProps holds
	// JSONSchemaProps) is filled two levels deep, then left nil.
	open map[reflect.Type]int
}

func newFiller(t *testing.T, length int) *filler {
	return &filler{t: t, length: length, seen: map[string]bool{}, open: map[reflect.Type]int{}}
}

// recursesTooDeep reports whether a pointer, slice or map of type typ
// leads back into a struct type already filled twice on the way here.
func (f *filler) recursesTooDeep(typ reflect.Type) bool {
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
		typ = typ.Elem()
	}
	return f.open[typ] >= 2
}

func (f *filler) fill(v reflect.Value) {
	f.n++
	typ := v.Type()
	if typ.PkgPath() == reflect.TypeFor[Pod]().PkgPath() {
		f.seen[typ.Name()] = true
	}
	switch typ {
	case reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(time.Unix(int64(1_700_000_000+f.n), 0).UTC()))
		return
	case reflect.TypeFor[Object]():
		// The one interface api's types hold (WatchEvent.Object).
		cm := &ConfigMap{}
		f.fill(reflect.ValueOf(cm).Elem())
		v.Set(reflect.ValueOf(cm))
		return
	}
	if v.Kind() == reflect.Pointer || v.Kind() == reflect.Slice || v.Kind() == reflect.Map {
		if f.recursesTooDeep(typ) {
			return
		}
	}
	switch v.Kind() {
	case reflect.Struct:
		f.open[typ]++
		for i := 0; i < v.NumField(); i++ {
			require.True(f.t, typ.Field(i).IsExported(), "unexported field %s.%s", typ, typ.Field(i).Name)
			f.fill(v.Field(i))
		}
		f.open[typ]--
	case reflect.Pointer:
		p := reflect.New(typ.Elem())
		f.fill(p.Elem())
		v.Set(p)
	case reflect.Map:
		m := reflect.MakeMap(typ)
		for range f.length {
			k := reflect.New(typ.Key()).Elem()
			f.fill(k)
			e := reflect.New(typ.Elem()).Elem()
			f.fill(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Slice:
		s := reflect.MakeSlice(typ, f.length, f.length)
		for i := range f.length {
			f.fill(s.Index(i))
		}
		v.Set(s)
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", f.n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(f.n%100 + 1))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(f.n%100 + 1))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(f.n) + 0.5)
	default:
		f.t.Fatalf("fill: unhandled kind %s (%s)", v.Kind(), typ)
	}
}

// mutate changes every reachable value of v in place, following pointers,
// interfaces, map values and slice elements, and adds a key to every map:
// anything the copy still shares with the original shows up as a change in
// the original.
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
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			mutate(t, v.Elem())
		}
	case reflect.Map:
		if v.IsNil() {
			return // left unfilled below a recursive type's depth limit
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			mutate(t, e)
			v.SetMapIndex(k, e)
		}
		require.Equal(t, reflect.String, v.Type().Key().Kind(), "mutate: map key %s", v.Type().Key())
		extraKey := reflect.New(v.Type().Key()).Elem()
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
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 1)
	default:
		t.Fatalf("mutate: unhandled kind %s (%s)", v.Kind(), v.Type())
	}
}

// deepCopyTargets is every type that must deep-copy: each registered kind
// and its list, and the types no kind holds (bodies that travel without
// being stored, options, selectors). TestEveryGeneratedDeepCopyIsExercised
// keeps this complete.
func deepCopyTargets() map[string]func() any {
	targets := map[string]func() any{
		"Binding":           func() any { return &Binding{} },
		"Scale":             func() any { return &Scale{} },
		"DeleteOptions":     func() any { return &DeleteOptions{} },
		"Status":            func() any { return &Status{} },
		"StatusError":       func() any { return &StatusError{} },
		"ListOptions":       func() any { return &ListOptions{} },
		"WatchEvent":        func() any { return &WatchEvent{} },
		"RawWatchEvent":     func() any { return &RawWatchEvent{} },
		"Requirements":      func() any { return &Requirements{} },
		"FieldRequirements": func() any { return &FieldRequirements{} },
		"GroupResource":     func() any { return &GroupResource{} },
		"KindInfo":          func() any { return &KindInfo{} },
		"IntOrString":       func() any { return &IntOrString{} },
		"FieldsV1":          func() any { return &FieldsV1{} },
		// apiextensions.k8s.io, declared before it is served.
		"CustomResourceDefinition":     func() any { return &CustomResourceDefinition{} },
		"CustomResourceDefinitionList": func() any { return &CustomResourceDefinitionList{} },
		// authorization.k8s.io and authentication.k8s.io: request bodies
		// answered at once, never stored, so not in the builtin table.
		"SelfSubjectAccessReview": func() any { return &SelfSubjectAccessReview{} },
		"SubjectAccessReview":     func() any { return &SubjectAccessReview{} },
		"SelfSubjectRulesReview":  func() any { return &SelfSubjectRulesReview{} },
		"SelfSubjectReview":       func() any { return &SelfSubjectReview{} },
		"TokenRequest":            func() any { return &TokenRequest{} },
	}
	for _, info := range Builtin().All() {
		targets[info.Kind] = func() any { return info.New() }
		targets[info.Kind+"List"] = func() any { return info.NewList() }
	}
	return targets
}

// deepCopyOf calls the DeepCopyObject or DeepCopy of obj, a pointer, and
// returns a pointer to the copy (DeepCopy of a named map or slice returns
// the value).
func deepCopyOf(t *testing.T, obj any) any {
	if o, ok := obj.(Object); ok {
		return o.DeepCopyObject()
	}
	m := reflect.ValueOf(obj).MethodByName("DeepCopy")
	require.True(t, m.IsValid(), "%T has no DeepCopy", obj)
	out := m.Call(nil)[0]
	if out.Kind() != reflect.Pointer {
		p := reflect.New(out.Type())
		p.Elem().Set(out)
		return p.Interface()
	}
	return out.Interface()
}

func TestDeepCopySharesNoMemoryForEveryField(t *testing.T) {
	for name, newObj := range deepCopyTargets() {
		t.Run(name, func(t *testing.T) {
			original, pristine := newObj(), newObj()
			newFiller(t, 2).fill(reflect.ValueOf(original).Elem())
			newFiller(t, 2).fill(reflect.ValueOf(pristine).Elem())
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

// reflect.DeepEqual tells a nil slice or map from an empty one, so an equal
// copy keeps nil nil and empty empty.
func TestDeepCopyKeepsEmptySlicesAndMapsEmpty(t *testing.T) {
	for name, newObj := range deepCopyTargets() {
		obj := newObj()
		newFiller(t, 0).fill(reflect.ValueOf(obj).Elem())
		assert.True(t, reflect.DeepEqual(obj, deepCopyOf(t, obj)), name)
	}
}

func TestDeepCopyKeepsNilsNil(t *testing.T) {
	for name, newObj := range deepCopyTargets() {
		obj := newObj()
		assert.Equal(t, obj, deepCopyOf(t, obj), name)
	}
}

// TestEveryGeneratedDeepCopyIsExercised reads which types have a generated
// DeepCopy and fails if filling the targets never reached one of them: a
// new type that no kind holds must be added to deepCopyTargets.
func TestEveryGeneratedDeepCopyIsExercised(t *testing.T) {
	f, err := parser.ParseFile(gotoken.NewFileSet(), "zz_generated.deepcopy.go", nil, 0)
	require.NoError(t, err)
	fill := newFiller(t, 1)
	for _, newObj := range deepCopyTargets() {
		fill.fill(reflect.ValueOf(newObj()).Elem())
	}
	var missed []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "DeepCopy" {
			continue
		}
		recv := fd.Recv.List[0].Type
		if star, ok := recv.(*ast.StarExpr); ok {
			recv = star.X
		}
		if name := recv.(*ast.Ident).Name; !fill.seen[name] {
			missed = append(missed, name)
		}
	}
	assert.Empty(t, missed, "types with a generated DeepCopy that no deepCopyTargets entry reaches: %s", strings.Join(missed, ", "))
}

func TestDeepCopyObjectOfNilIsNil(t *testing.T) {
	var pod *Pod
	assert.True(t, pod.DeepCopyObject() == nil, "a nil *Pod must copy to a nil Object, not an Object holding nil")
	var status *Status
	assert.True(t, status.DeepCopyObject() == nil)
}
