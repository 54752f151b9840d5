package pruning

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/schema"
)

// CoerceEmbeddedMetadata makes the metadata of every embedded resource in
// obj (a node with x-kubernetes-embedded-resource below the root, whose
// own metadata is typed already) an ObjectMeta: decoded into
// api.ObjectMeta and written back, so what ObjectMeta has no field for is
// dropped, as Prune leaves it (metadata is the embedded kind's business).
// It returns the paths of the dropped fields, sorted, for fieldValidation
// ("spec.template.metadata.foo"; only metadata's own fields are named),
// and an error for a field of the wrong type.
// Kubernetes: objectmeta.CoerceWithOptions, which the custom resource
// handler runs after pruning.
func CoerceEmbeddedMetadata(obj any, s *schema.Structural) ([]string, error) {
	c := &coercer{}
	err := c.coerce(obj, s, "")
	sort.Strings(c.unknown)
	return c.unknown, err
}

// HasEmbeddedResource says whether any node of s below the root is an
// embedded resource, so callers can skip CoerceEmbeddedMetadata.
func HasEmbeddedResource(s *schema.Structural) bool {
	return s.AnyBelow(func(n *schema.Structural) bool { return n.XEmbeddedResource })
}

type coercer struct{ unknown []string }

func (c *coercer) coerce(x any, s *schema.Structural, path string) error {
	if s == nil {
		return nil
	}
	switch t := x.(type) {
	case map[string]any:
		if meta, ok := t["metadata"]; ok && s.XEmbeddedResource && path != "" {
			coerced, err := c.objectMeta(meta, childPath(path, "metadata"))
			if err != nil {
				return err
			}
			t["metadata"] = coerced
		}
		for k, v := range t {
			var err error
			if prop, ok := s.Property(k); ok {
				err = c.coerce(v, prop, childPath(path, k))
			} else if s.AdditionalProperties != nil {
				err = c.coerce(v, s.AdditionalProperties.Structural, childPath(path, k))
			}
			if err != nil {
				return err
			}
		}
	case []any:
		for i, v := range t {
			if err := c.coerce(v, s.Items, indexPath(path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// objectMeta round-trips meta through api.ObjectMeta.
func (c *coercer) objectMeta(meta any, path string) (any, error) {
	raw, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	var om api.ObjectMeta
	if err := json.Unmarshal(raw, &om); err != nil {
		return nil, fmt.Errorf("%s: Invalid value: %s", path, strings.TrimPrefix(err.Error(), "json: "))
	}
	if m, ok := meta.(map[string]any); ok {
		known := objectMetaFields()
		for k := range m {
			if !known[k] {
				c.unknown = append(c.unknown, childPath(path, k))
			}
		}
	}
	out, err := json.Marshal(&om)
	if err != nil {
		return nil, err
	}
	return schema.DecodeJSON(out)
}

// objectMetaFields is the JSON names of ObjectMeta's fields.
var objectMetaFields = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	t := reflect.TypeFor[api.ObjectMeta]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out[name] = true
		}
	}
	return out
})
