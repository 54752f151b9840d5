package typed

import (
	"fmt"

	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// listItemElement names a list element by the list's type: its key fields
// for a map list, itself for a set. Kubernetes: typed/helpers.go
// listItemToPathElement, whose messages these are.
func listItemElement(t *Type, item any) (fieldpath.PathElement, error) {
	switch t.ListType {
	case ListMap:
		m, ok := item.(map[string]any)
		if item == nil {
			return fieldpath.PathElement{}, fmt.Errorf("associative list with keys may not have a null element")
		}
		if !ok {
			return fieldpath.PathElement{}, fmt.Errorf("associative list with keys may not have non-map elements")
		}
		var key []fieldpath.KeyField
		for _, k := range t.Keys {
			if v, ok := m[k]; ok {
				key = append(key, fieldpath.KeyField{Name: k, Value: v})
			} else if def, ok := t.KeyDefaults[k]; ok {
				key = append(key, fieldpath.KeyField{Name: k, Value: def})
			}
			// A key field that is neither set nor defaulted is left out:
			// the element is a different one from any that sets it.
		}
		if len(key) == 0 {
			return fieldpath.PathElement{}, fmt.Errorf("associative list with keys has an element that omits all key fields %q (and doesn't have default values for any key fields)", t.Keys)
		}
		return fieldpath.Key(key...), nil
	case ListSet:
		switch item.(type) {
		case map[string]any:
			return fieldpath.PathElement{}, fmt.Errorf("associative list without keys has an element that's a map type")
		case []any:
			return fieldpath.PathElement{}, fmt.Errorf("not supported: associative list with lists as elements")
		case nil:
			return fieldpath.PathElement{}, fmt.Errorf("associative list without keys has an element that's an explicit null")
		}
		return fieldpath.Value(item), nil
	}
	return fieldpath.PathElement{}, fmt.Errorf("invalid indexing of non-associative list")
}
