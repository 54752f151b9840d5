package api

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// containsJSON reports the first place where want has something got lacks:
// every key of every object in want must be in got with an equal value.
func containsJSON(path string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: want an object, got %v", path, got)
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s.%s: lost", path, k)
			}
			if diff := containsJSON(path+"."+k, wv, gv); diff != "" {
				return diff
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: want %v, got %v", path, want, got)
		}
		for i := range w {
			if diff := containsJSON(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); diff != "" {
				return diff
			}
		}
	default:
		if want != got {
			return fmt.Sprintf("%s: want %#v, got %#v", path, want, got)
		}
	}
	return ""
}

func TestManifestsRoundTripWithoutLosingFields(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 10)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			require.NoError(t, err)
			in, err := yaml.YAMLToJSON(raw)
			require.NoError(t, err)
			var tm TypeMeta
			require.NoError(t, json.Unmarshal(in, &tm))

			var into any
			if tm.Kind == "DeleteOptions" {
				opts := &DeleteOptions{}
				unknown, dups, err := DecodeStrictOptions(in, opts)
				require.NoError(t, err)
				assert.Empty(t, unknown)
				assert.Empty(t, dups)
				into = opts
			} else {
				obj := newForKind(t, tm)
				unknown, dups, err := DecodeStrict(in, obj)
				require.NoError(t, err)
				assert.Empty(t, unknown, "the manifest uses fields the type does not model")
				assert.Empty(t, dups)
				into = obj
			}
			out, err := json.Marshal(into)
			require.NoError(t, err)

			var want, got any
			require.NoError(t, json.Unmarshal(in, &want))
			require.NoError(t, json.Unmarshal(out, &got))
			assert.Empty(t, containsJSON("", want, got), "re-encoded:\n%s", out)

			// And the sigs.k8s.io/yaml path kubectl users take gives the same object.
			viaYAML := reflectNew(into)
			require.NoError(t, yaml.Unmarshal(raw, viaYAML))
			assert.Equal(t, into, viaYAML)
		})
	}
}

func newForKind(t *testing.T, tm TypeMeta) Object {
	switch tm.Kind {
	case "Binding":
		return &Binding{}
	case "Scale":
		return &Scale{}
	}
	group := ""
	if g, _, ok := cutLast(tm.APIVersion); ok {
		group = g
	}
	info, ok := Builtin().ForKind(group, tm.Kind)
	require.True(t, ok, "kind %s/%s not registered", group, tm.Kind)
	require.Equal(t, tm.APIVersion, info.GroupVersion())
	return info.New()
}

func cutLast(apiVersion string) (group, version string, ok bool) {
	for i := len(apiVersion) - 1; i >= 0; i-- {
		if apiVersion[i] == '/' {
			return apiVersion[:i], apiVersion[i+1:], true
		}
	}
	return "", apiVersion, false
}

func reflectNew(v any) any { return reflect.New(reflect.TypeOf(v).Elem()).Interface() }
