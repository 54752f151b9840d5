package conformance

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"

	"kubeloop/api"
	"kubeloop/apiserver/openapi/spec"
)

// TestOpenAPIDefinitionsMatchKubernetesTypes compares kubeloop's OpenAPI
// definitions with k8s.io/api's Go types, field by field: the same
// definition names (OpenAPIModelName), the same properties, each of the
// same shape (the same $ref, list, map or scalar type and format), the same
// patch strategy and merge key, and the same "required" as Kubernetes'
// generator derives from the json tags and the +optional/+required markers
// in k8s.io/api's source. Descriptions are ours and not compared.
func TestOpenAPIDefinitionsMatchKubernetesTypes(t *testing.T) {
	defs, err := spec.Build(api.Builtin())
	require.NoError(t, err)

	k := &k8sDefinitions{defs: map[string]*k8sDefinition{}, comments: map[string]map[string]map[string]string{}}
	var roots []any
	for _, info := range api.Builtin().All() {
		gv := schema.GroupVersion{Group: info.Group, Version: info.Version}
		roots = append(roots, newK8sObject(t, gv.WithKind(info.Kind)), newK8sObject(t, gv.WithKind(info.ListKind())))
		for _, sub := range info.Subresources {
			if kind, ok := api.SubresourceKind(sub); ok {
				roots = append(roots, newK8sObject(t, schema.GroupVersionKind{Group: kind.Group, Version: kind.Version, Kind: kind.Kind}))
			}
		}
	}
	roots = append(roots, &metav1.Status{}, &metav1.DeleteOptions{}, &metav1.WatchEvent{}, &metav1.Patch{})
	for _, r := range roots {
		k.walk(t, reflect.TypeOf(r).Elem())
	}

	assert.Equal(t, sortedKeys(k.defs), sortedKeys(defs), "the same definitions")
	for name, want := range k.defs {
		have := defs[name]
		if have == nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			if want.special {
				return // scalar wrappers: compared by the spec package's own tests
			}
			assert.Equal(t, sortedKeys(want.properties), sortedKeys(have.Properties), "properties")
			assert.ElementsMatch(t, want.required, have.Required, "required")
			for prop, w := range want.properties {
				h := have.Properties[prop]
				if h == nil {
					continue
				}
				assert.Equal(t, w.shape, shapeOf(h), "%s: shape", prop)
				assert.Equal(t, w.strategy, h.Extensions[spec.ExtPatchStrategy], "%s: patch strategy", prop)
				assert.Equal(t, w.mergeKey, h.Extensions[spec.ExtPatchMergeKey], "%s: merge key", prop)
			}
		})
	}
}

func newK8sObject(t *testing.T, gvk schema.GroupVersionKind) any {
	t.Helper()
	if gvk.Group == apiextensionsv1.GroupName {
		// CustomResourceDefinition is apiextensions-apiserver's, not k8s.io/api's.
		s := runtime.NewScheme()
		require.NoError(t, apiextensionsv1.AddToScheme(s))
		obj, err := s.New(gvk)
		require.NoError(t, err)
		return obj
	}
	obj, err := scheme.Scheme.New(gvk)
	require.NoError(t, err, "k8s.io/api has no %v", gvk)
	return obj
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// shapeOf writes a schema as a short string: "ref:<name>",
// "array<...>", "map<...>" or "type/format".
func shapeOf(s *spec.Schema) string {
	switch {
	case s.Ref != "":
		return "ref:" + s.Ref
	case s.Items != nil:
		return "array<" + shapeOf(s.Items) + ">"
	case s.AdditionalProperties != nil:
		return "map<" + shapeOf(s.AdditionalProperties) + ">"
	}
	return s.Type + "/" + s.Format
}

type k8sDefinitions struct {
	defs map[string]*k8sDefinition
	// comments of k8s.io/api's fields: package path → type → Go field name → doc.
	comments map[string]map[string]map[string]string
}

type k8sDefinition struct {
	special    bool // a type that encodes itself (Time, Quantity, IntOrString, FieldsV1, RawExtension)
	properties map[string]k8sProperty
	required   []string
}

type k8sProperty struct {
	shape    string
	strategy any // string, or nil
	mergeKey any
}

type modelNamer interface{ OpenAPIModelName() string }

var customJSON = reflect.TypeFor[interface{ UnmarshalJSON([]byte) error }]()

// walk records the definition of k8s struct type t and of every type it reaches.
func (k *k8sDefinitions) walk(t *testing.T, typ reflect.Type) string {
	t.Helper()
	namer, ok := reflect.New(typ).Interface().(modelNamer)
	require.True(t, ok, "%v has no OpenAPIModelName", typ)
	name := namer.OpenAPIModelName()
	if _, seen := k.defs[name]; seen {
		return name
	}
	d := &k8sDefinition{properties: map[string]k8sProperty{}}
	k.defs[name] = d
	if reflect.PointerTo(typ).Implements(customJSON) || typ.NumField() == 0 && name != "io.k8s.apimachinery.pkg.apis.meta.v1.Patch" {
		d.special = true
		return name
	}
	k.addFields(t, d, typ)
	return name
}

func (k *k8sDefinitions) addFields(t *testing.T, d *k8sDefinition, typ reflect.Type) {
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag := f.Tag.Get("json")
		jsonName, opts, _ := strings.Cut(tag, ",")
		if tag == "-" || !f.IsExported() {
			continue
		}
		if jsonName == "" && f.Anonymous {
			k.addFields(t, d, f.Type)
			continue
		}
		p := k8sProperty{shape: k.shape(t, f.Type)}
		if v := f.Tag.Get("patchStrategy"); v != "" {
			p.strategy = v
		}
		if v := f.Tag.Get("patchMergeKey"); v != "" {
			p.mergeKey = v
		}
		d.properties[jsonName] = p
		if k.required(t, typ, f, strings.Contains(opts, "omitempty")) {
			d.required = append(d.required, jsonName)
		}
	}
}

func (k *k8sDefinitions) shape(t *testing.T, typ reflect.Type) string {
	if typ == reflect.TypeFor[[]byte]() {
		return "string/byte"
	}
	if _, ok := reflect.New(typ).Interface().(modelNamer); ok && typ.Kind() == reflect.Struct {
		return "ref:" + k.walk(t, typ)
	}
	switch typ.Kind() {
	case reflect.Pointer:
		return k.shape(t, typ.Elem())
	case reflect.Slice:
		return "array<" + k.shape(t, typ.Elem()) + ">"
	case reflect.Map:
		return "map<" + k.shape(t, typ.Elem()) + ">"
	case reflect.String:
		return "string/"
	case reflect.Bool:
		return "boolean/"
	case reflect.Int32, reflect.Int:
		return "integer/int32"
	case reflect.Int64:
		return "integer/int64"
	case reflect.Float64:
		return "number/double"
	}
	return fmt.Sprintf("unknown %v", typ)
}

// required applies kube-openapi's rule (pkg/generators/openapi.go,
// isOptional): +required → required, +optional → optional, otherwise
// required unless the json tag says omitempty.
func (k *k8sDefinitions) required(t *testing.T, owner reflect.Type, f reflect.StructField, omitempty bool) bool {
	doc := k.fieldComment(t, owner, f.Name)
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "+required" || strings.HasPrefix(line, "+required="):
			return true
		case line == "+optional" || strings.HasPrefix(line, "+optional="):
			return false
		}
	}
	return !omitempty
}

// fieldComment reads the doc comment of a field from k8s.io/api's source
// in the module cache.
func (k *k8sDefinitions) fieldComment(t *testing.T, owner reflect.Type, field string) string {
	pkg := owner.PkgPath()
	if k.comments[pkg] == nil {
		k.comments[pkg] = parsePackageComments(t, pkg)
	}
	return k.comments[pkg][owner.Name()][field]
}

func parsePackageComments(t *testing.T, pkg string) map[string]map[string]string {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", pkg).Output()
	require.NoError(t, err, "go list %s", pkg)
	dir := strings.TrimSpace(string(out))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	comments := map[string]map[string]string{}
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return false
			}
			fields := map[string]string{}
			for _, fl := range st.Fields.List {
				for _, n := range fl.Names {
					fields[n.Name] = fl.Doc.Text()
				}
				if len(fl.Names) == 0 {
					if id := embeddedIdent(fl.Type); id != "" {
						fields[id] = fl.Doc.Text()
					}
				}
			}
			comments[ts.Name.Name] = fields
			return false
		})
	}
	return comments
}

func embeddedIdent(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.StarExpr:
		return embeddedIdent(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}
