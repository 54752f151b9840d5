package conformance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/typed"
)

// TestSchemaMatchesKubernetes walks, for every served built-in kind, our
// schema (from the api types' struct tags) next to the one client-go
// carries for server-side apply (generated from Kubernetes' OpenAPI), and
// requires the same list types, keys and atomic structs and maps wherever
// both know a field.
func TestSchemaMatchesKubernetes(t *testing.T) {
	tc := smdTypeConverter()
	for _, info := range api.Builtin().All() {
		gvk := schema.GroupVersionKind{Group: info.Group, Version: info.Version, Kind: info.Kind}
		obj, err := clientgoscheme.Scheme.New(gvk)
		if err != nil {
			continue // a kind client-go does not serve (CustomResourceDefinition)
		}
		obj.GetObjectKind().SetGroupVersionKind(gvk)
		t.Run(info.Kind, func(t *testing.T) {
			tv, err := tc.ObjectToTyped(obj)
			require.NoError(t, err)
			w := &schemaWalker{smd: tv.Schema(), seen: map[string]bool{}}
			w.walk(t, "", tv.TypeRef(), typed.ForObject(info.New()))
			assert.Greater(t, w.compared, 3, "the walk compared too little to mean anything")
			assert.ElementsMatch(t, pendingSchemaTags[info.Kind], w.mismatches,
				"mismatches with Kubernetes' schema (a fixed one must leave pendingSchemaTags)")
		})
	}
}

// pendingSchemaTags are the known differences with Kubernetes' schema, by
// kind; there are none left, and a new one fails the test.
var pendingSchemaTags = map[string][]string{}

type schemaWalker struct {
	smd        *smdschema.Schema
	seen       map[string]bool
	compared   int
	mismatches []string
}

func (w *schemaWalker) differ(path, what string, k8s, ours any) bool {
	if fmt.Sprint(k8s) == fmt.Sprint(ours) {
		return false
	}
	w.mismatches = append(w.mismatches, fmt.Sprintf("%s: %s: Kubernetes %v, ours %v", path, what, k8s, ours))
	return true
}

func (w *schemaWalker) walk(t *testing.T, path string, tr smdschema.TypeRef, ours *typed.Type) {
	key := fmt.Sprintf("%v/%p/%v", tr.NamedType, ours, tr.ElementRelationship)
	if tr.NamedType != nil {
		key = *tr.NamedType + fmt.Sprintf("/%p/%v", ours, tr.ElementRelationship)
		if strings.HasPrefix(*tr.NamedType, "__untyped") {
			return
		}
	}
	if w.seen[key] {
		return
	}
	w.seen[key] = true
	atom, ok := w.smd.Resolve(tr)
	require.True(t, ok, path)
	switch {
	case atom.List != nil:
		if w.differ(path, "kind", "list", kindName(ours.Kind)) {
			return
		}
		w.compared++
		want := typed.ListAtomic
		if atom.List.ElementRelationship == smdschema.Associative {
			want = typed.ListSet
			if len(atom.List.Keys) > 0 {
				want = typed.ListMap
			}
		}
		w.differ(path, "list type", want, ours.ListType)
		if want == typed.ListMap {
			w.differ(path, "list keys", atom.List.Keys, ours.Keys)
		}
		if want != typed.ListAtomic {
			w.walk(t, path+"[]", atom.List.ElementType, ours.Elem)
		}
	case atom.Map != nil:
		if ours.Kind == typed.Untyped || ours.Kind == typed.Scalar {
			return // e.g. FieldsV1, RawExtension, which Kubernetes types loosely too
		}
		w.compared++
		if w.differ(path, "atomic", atom.Map.ElementRelationship == smdschema.Atomic, ours.Atomic) || ours.Atomic {
			return
		}
		if len(atom.Map.Fields) > 0 || atom.Map.ElementType == (smdschema.TypeRef{}) {
			// a struct (an empty one has neither fields nor element type)
			if w.differ(path, "kind", "struct", kindName(ours.Kind)) {
				return
			}
			for _, f := range atom.Map.Fields {
				if of, ok := ours.Fields[f.Name]; ok {
					w.walk(t, path+"."+f.Name, f.Type, of)
				}
			}
			return
		}
		if ours.Kind == typed.Struct && len(ours.Fields) == 0 {
			return // an empty struct: Kubernetes' OpenAPI writes it as a map of anything
		}
		if !w.differ(path, "kind", "map", kindName(ours.Kind)) {
			w.walk(t, path+"{}", atom.Map.ElementType, ours.Elem)
		}
	}
}

func kindName(k typed.Kind) string {
	return map[typed.Kind]string{typed.Scalar: "scalar", typed.Struct: "struct", typed.Map: "map", typed.List: "list", typed.Untyped: "untyped"}[k]
}
