package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const outputName = "zz_generated.deepcopy.go"

// TestGeneratedFilesAreCurrent fails when a type changed and nobody ran the
// generator: the committed deep copies would miss the new fields.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	for _, dir := range []string{"../../api", "internal/fixture"} {
		t.Run(dir, func(t *testing.T) {
			want, err := generate(dir, outputName)
			require.NoError(t, err)
			got, err := os.ReadFile(filepath.Join(dir, outputName))
			require.NoError(t, err)
			assert.True(t, string(want) == string(got),
				"%s/%s is stale: run `go generate ./%s`", dir, outputName, filepath.Base(dir))
		})
	}
}

// writePackage writes one file of package p into a fresh directory.
func writePackage(t *testing.T, src string) string {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.go"), []byte("package p\n\n"+src), 0o644))
	return dir
}

func TestUnsupportedFieldIsAnErrorNamingTypeAndField(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"func", "type T struct{ F func() }",
			"p.T.F: cannot deep-copy func(): a func cannot be deep-copied"},
		{"chan in a slice", "type T struct{ F []chan int }",
			"p.T.F: cannot deep-copy chan int: a channel cannot be deep-copied"},
		{"empty interface", "type T struct{ F map[string]any }",
			"p.T.F: cannot deep-copy any: an empty interface has no DeepCopy method"},
		{"interface without DeepCopy<Name>", "type I interface{ M() }\ntype T struct{ F I }",
			"p.T.F: cannot deep-copy I: interface I has no DeepCopyI method"},
		{"unknown external type", "import \"sync\"\ntype T struct{ F *sync.Mutex }",
			`p.T.F: cannot deep-copy sync.Mutex: type sync.Mutex of package "sync" is not known to the generator`},
		{"undeclared type", "type T struct{ F Missing }",
			"p.T.F: cannot deep-copy Missing: unknown type Missing (not declared in package)"},
		{"pointer map key", "type T struct{ F map[*int]string }",
			"p.T.F: cannot deep-copy map[*int]string: a map key must be a plain value"},
		{"array of references", "type T struct{ F [2][]int }",
			"p.T.F: cannot deep-copy [2][]int: an array of references is not supported"},
		{"unexported struct with references", "type u struct{ s []int }\ntype T struct{ F u }",
			"p.T.F: cannot deep-copy u: u is unexported and has no DeepCopyInto"},
		{"opted-out struct with references", "// +kubeloop:deepcopy=false\ntype O struct{ s []int }\ntype T struct{ F []O }",
			"p.T.F: cannot deep-copy O: O is marked +kubeloop:deepcopy=false and has no DeepCopyInto"},
		{"hand-written DeepCopy without DeepCopyInto", "type H struct{ s []int }\nfunc (h *H) DeepCopy() *H { return h }\ntype T struct{ F *H }",
			"p.T.F: cannot deep-copy H: H has a hand-written DeepCopy and has no DeepCopyInto"},
		{"generic without DeepCopyInto", "type G[X any] struct{ s []X }\ntype T struct{ F G[int] }",
			"p.T.F: cannot deep-copy G[int]: a generic type needs a hand-written DeepCopyInto"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := generate(writePackage(t, tc.src), outputName)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestEveryUnsupportedFieldIsReportedAtOnce(t *testing.T) {
	_, err := generate(writePackage(t, "type A struct{ F func() }\ntype B struct{ G chan int }"), outputName)
	require.Error(t, err)
	assert.Equal(t, "p.A.F: cannot deep-copy func(): a func cannot be deep-copied\n"+
		"p.B.G: cannot deep-copy chan int: a channel cannot be deep-copied\n"+optOutHint, err.Error())
}

// receivers parses generated source and returns "Type.Method" for every method.
func receivers(t *testing.T, src []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), outputName, src, 0)
	require.NoError(t, err)
	var out []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
			out = append(out, receiverTypeName(fd.Recv.List[0].Type)+"."+fd.Name.Name)
		}
	}
	return out
}

func TestSkippedTypesGetNoMethods(t *testing.T) {
	src, err := generate(writePackage(t, `
type Object interface{ DeepCopyObject() Object }
type TypeMeta struct{ Kind string }
type ObjectMeta struct{ Labels map[string]string }
type Kind struct {
	TypeMeta
	ObjectMeta
}
// +kubeloop:deepcopy=false
type OptedOut struct{ s []int }
type Hand struct{ s []int }
func (in *Hand) DeepCopyInto(out *Hand) {}
type Generic[X any] struct{ s []X }
type unexported struct{ s []int }
type Alias = ObjectMeta
type Named map[string]string
type Str string
`), outputName)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"Kind.DeepCopyInto", "Kind.DeepCopy", "Kind.DeepCopyObject",
		"Named.DeepCopyInto", "Named.DeepCopy",
		"ObjectMeta.DeepCopyInto", "ObjectMeta.DeepCopy",
		"TypeMeta.DeepCopyInto", "TypeMeta.DeepCopy",
	}, receivers(t, src))
}

func TestOutputIsSortedAndDeterministic(t *testing.T) {
	first, err := generate("../../api", outputName)
	require.NoError(t, err)
	for range 3 {
		again, err := generate("../../api", outputName)
		require.NoError(t, err)
		require.Equal(t, string(first), string(again))
	}
	var types []string
	for _, r := range receivers(t, first) {
		if name, ok := strings.CutSuffix(r, ".DeepCopyInto"); ok {
			types = append(types, name)
		}
	}
	assert.Greater(t, len(types), 40)
	assert.True(t, sort.StringsAreSorted(types), "types out of order: %v", types)
	assert.Contains(t, string(first), "// Code generated by cmd/deepcopy-gen. DO NOT EDIT.\n\npackage api\n")
}

func TestAnOldOutputFileIsNotReadAsHandWritten(t *testing.T) {
	dir := writePackage(t, "type T struct{ s []int }")
	first, err := generate(dir, outputName)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, outputName), first, 0o644))
	again, err := generate(dir, outputName)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(again))
}
