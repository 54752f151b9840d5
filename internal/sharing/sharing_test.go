package sharing

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

type leaf struct {
	Name  string
	Count *int
}

type object struct {
	Name   string
	Labels map[string]string
	Items  []leaf
	Raw    []byte
	Ptr    *leaf
	Iface  any
	hidden int // compared whole with its struct: object is opaque to Share
}

type wrapper struct {
	Object object
	Parts  []leaf
	Note   *string
}

func one() *int { n := 1; return &n }

func sample(name string) *wrapper {
	note := "note"
	return &wrapper{Parts: []leaf{{Name: "a", Count: one()}, {Name: "b"}}, Note: &note,
		Object: object{Name: name}}
}

func TestShareLeavesTheObjectEqualAndAliasesOnlyEqualParts(t *testing.T) {
	older, obj := sample("x"), sample("y")
	obj.Parts[1].Name = "changed"
	want := *obj
	want.Parts = append([]leaf(nil), obj.Parts...)

	var s Sharer
	s.Share(obj, older)

	require.True(t, reflect.DeepEqual(&want, obj), "Share never changes what the object says")
	require.Same(t, older.Note, obj.Note, "an equal pointer is the older one's")
	require.Same(t, older.Parts[0].Count, obj.Parts[0].Count, "inside a changed slice, equal elements' parts are shared")
	require.NotSame(t, &older.Parts[0], &obj.Parts[0], "the slice that changed keeps its own array")
	require.Equal(t, "b", older.Parts[1].Name, "the older object is only read")
}

func TestShareSharesEqualStringsAndBytes(t *testing.T) {
	type node struct {
		Name string
		Raw  []byte
	}
	older := &node{Name: string([]byte("same")), Raw: []byte(`{"f:x":{}}`)}
	obj := &node{Name: string([]byte("same")), Raw: []byte(`{"f:x":{}}`)}
	var s Sharer
	s.Share(obj, older)
	require.Equal(t, unsafe.StringData(older.Name), unsafe.StringData(obj.Name))
	require.Same(t, &older.Raw[0], &obj.Raw[0])
}

func TestShareLeavesOtherTypesAlone(t *testing.T) {
	var s Sharer
	a := sample("x")
	s.Share(a, &object{}) // different types
	s.Share(a, nil)
	s.Share(a, a)
	require.Equal(t, "x", a.Object.Name)
}
