package typed

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func examplePod() *api.Pod {
	return &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{
			Containers: []api.Container{{
				Name: "c", Image: "nginx",
				Ports: []api.ContainerPort{{ContainerPort: 80}, {ContainerPort: 53, Protocol: "UDP"}},
				Args:  []string{"a", "b"},
			}},
			NodeSelector: map[string]string{"disk": "ssd"},
		},
	}
}

func fieldsV1(t *testing.T, obj any) string {
	t.Helper()
	v, err := ToValue(obj)
	require.NoError(t, err)
	s, err := ToFieldSet(v, ForObject(obj))
	require.NoError(t, err)
	b, err := s.ToJSON()
	require.NoError(t, err)
	return string(b)
}

func TestToFieldSetOfPod(t *testing.T) {
	got := fieldsV1(t, examplePod())
	// ports keyed by containerPort and protocol, TCP filled in from the
	// default; args atomic; nodeSelector atomic; empty struct fields
	// (resources: {}, status: {}) are members.
	assert.Equal(t, `{"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:labels":{"f:app":{}},"f:name":{},"f:namespace":{}},`+
		`"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:args":{},"f:image":{},"f:name":{},"f:ports":{`+
		`"k:{\"containerPort\":53,\"protocol\":\"UDP\"}":{".":{},"f:containerPort":{},"f:protocol":{}},`+
		`"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}},"f:resources":{}}},"f:nodeSelector":{}},"f:status":{}}`, got)
}

func TestToFieldSetOwnerReferencesAreAtomicElements(t *testing.T) {
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "r", Finalizers: []string{"x", "a"},
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "d", UID: "u1"}}}}
	got := fieldsV1(t, rs)
	assert.Contains(t, got, `"f:finalizers":{"v:\"a\"":{},"v:\"x\"":{}}`)
	assert.Contains(t, got, `"f:ownerReferences":{"k:{\"uid\":\"u1\"}":{}}`)
}

func TestToFieldSetRefusesBadValues(t *testing.T) {
	pod := ForObject(&api.Pod{})
	for _, tc := range []struct{ in, msg string }{
		{`{"spec":{"containers":[{"image":"x"}]}}`, `.spec.containers: element 0: associative list with keys has an element that omits all key fields ["name"]`},
		{`{"spec":{"containers":["x"]}}`, `.spec.containers: element 0: associative list with keys may not have non-map elements`},
		{`{"spec":{"containers":{}}}`, `.spec.containers: expected list, got map`},
		{`{"spec":{"nope":1}}`, `.spec.nope: field not declared in schema`},
		{`{"spec":{"hostNetwork":"yes"}}`, `.spec.hostNetwork: expected boolean, got string`},
		{`{"metadata":{"finalizers":[{}]}}`, `.metadata.finalizers: element 0: associative list without keys has an element that's a map type`},
	} {
		v, err := DecodeValue([]byte(tc.in))
		require.NoError(t, err)
		_, err = ToFieldSet(v, pod)
		require.Error(t, err, tc.in)
		assert.Contains(t, err.Error(), tc.msg)
		var fe *FieldError
		assert.ErrorAs(t, err, &fe)
	}
}

func TestCompare(t *testing.T) {
	pod := ForObject(&api.Pod{})
	for _, tc := range []struct {
		name, old, new           string
		added, removed, modified string
	}{
		{"null field gaining contents is not added itself",
			`{"spec":{"containers":null}}`, `{"spec":{"containers":[{"name":"c","image":"x"}]}}`,
			`{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:image":{},"f:name":{}}}}}`, `{}`, `{}`},
		{"absent map is added with its keys",
			`{"metadata":{}}`, `{"metadata":{"labels":{"a":"1"}}}`,
			`{"f:metadata":{"f:labels":{".":{},"f:a":{}}}}`, `{}`, `{}`},
		{"scalar change is modified",
			`{"spec":{"containers":[{"name":"c","image":"x"}]}}`, `{"spec":{"containers":[{"name":"c","image":"y"}]}}`,
			`{}`, `{}`, `{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{"f:image":{}}}}}`},
		{"atomic list change is one modified leaf",
			`{"spec":{"containers":[{"name":"c","args":["a"]}]}}`, `{"spec":{"containers":[{"name":"c","args":["a","b"]}]}}`,
			`{}`, `{}`, `{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{"f:args":{}}}}}`},
		{"removed element",
			`{"metadata":{"finalizers":["a","b"]}}`, `{"metadata":{"finalizers":["a"]}}`,
			`{}`, `{"f:metadata":{"f:finalizers":{"v:\"b\"":{}}}}`, `{}`},
		{"duplicates compared as a whole",
			`{"spec":{"containers":[{"name":"c"},{"name":"c"}]}}`, `{"spec":{"containers":[{"name":"c","image":"x"}]}}`,
			`{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:image":{},"f:name":{}}}}}`, `{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{}}}}`, `{}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := DecodeValue([]byte(tc.old))
			require.NoError(t, err)
			n, err := DecodeValue([]byte(tc.new))
			require.NoError(t, err)
			c, err := Compare(o, n, pod)
			require.NoError(t, err)
			for _, s := range []struct {
				name, want string
				got        interface{ ToJSON() ([]byte, error) }
			}{{"added", tc.added, c.Added}, {"removed", tc.removed, c.Removed}, {"modified", tc.modified, c.Modified}} {
				b, err := s.got.ToJSON()
				require.NoError(t, err)
				assert.Equal(t, s.want, string(b), s.name)
			}
		})
	}
}

// TestEverySliceOfEveryServedKindHasAListType walks the Go type of every
// built-in kind: each slice must become a list type, and a map list's keys
// must be fields of its element struct.
func TestEverySliceOfEveryServedKindHasAListType(t *testing.T) {
	for _, info := range api.Builtin().All() {
		t.Run(info.Kind, func(t *testing.T) {
			root := ForObject(info.New())
			require.Equal(t, Struct, root.Kind)
			seen := map[*Type]bool{}
			var walk func(path string, ty *Type)
			walk = func(path string, ty *Type) {
				if seen[ty] {
					return
				}
				seen[ty] = true
				switch ty.Kind {
				case List:
					assert.Contains(t, []string{ListAtomic, ListSet, ListMap}, ty.ListType, path)
					if ty.ListType == ListMap {
						require.NotEmpty(t, ty.Keys, path)
						require.Equal(t, Struct, ty.Elem.Kind, path)
						for _, k := range ty.Keys {
							assert.Contains(t, ty.Elem.Fields, k, "%s: key %s", path, k)
						}
					}
					if ty.ListType == ListSet {
						assert.Equal(t, Scalar, ty.Elem.Kind, "%s: a set holds scalars", path)
					}
					walk(path+"[]", ty.Elem)
				case Struct:
					for name, f := range ty.Fields {
						walk(path+"."+name, f)
					}
				case Map:
					walk(path+"{}", ty.Elem)
				}
			}
			walk("", root)
		})
	}
}

func TestSchemaReadsTagsAndPatchStrategy(t *testing.T) {
	type elem struct {
		Name     string `json:"name"`
		Protocol string `json:"protocol,omitempty" default:"TCP"`
	}
	type obj struct {
		Tagged   []elem            `json:"tagged" listType:"map" listMapKey:"name,protocol"`
		Merged   []elem            `json:"merged" patchStrategy:"merge" patchMergeKey:"name"`
		Set      []string          `json:"set" patchStrategy:"merge"`
		Plain    []string          `json:"plain"`
		Atomic   map[string]string `json:"atomic" mapType:"atomic"`
		Granular map[string]string `json:"granular"`
		Elems    []elem            `json:"elems" listType:"map" listMapKey:"name" structType:"atomic"`
	}
	s := TypeFor(reflect.TypeFor[obj]())
	f := s.Fields
	assert.Equal(t, []string{"name", "protocol"}, f["tagged"].Keys)
	assert.Equal(t, map[string]any{"protocol": "TCP"}, f["tagged"].KeyDefaults)
	assert.Equal(t, ListMap, f["merged"].ListType)
	assert.Equal(t, []string{"name"}, f["merged"].Keys)
	assert.Equal(t, ListSet, f["set"].ListType)
	assert.Equal(t, ListAtomic, f["plain"].ListType)
	assert.True(t, f["atomic"].Atomic)
	assert.False(t, f["granular"].Atomic)
	assert.True(t, f["elems"].Elem.Atomic)
	assert.False(t, f["tagged"].Elem.Atomic, "structType on one field must not leak into the shared element type")
	assert.False(t, strings.Contains(f["plain"].ListType, "map"))
}
