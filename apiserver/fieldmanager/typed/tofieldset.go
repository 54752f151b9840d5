package typed

import (
	"slices"

	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// ToFieldSet returns the set of fields a value sets: every scalar, every
// atomic list, map or struct, every element of a set or map list, every key
// of a map, and every field holding null or an empty object. A set or map
// list that names an element twice is an error. A struct
// field that holds a non-empty object is not itself in the set, only its
// contents. Kubernetes: typed/tofieldset.go (TypedValue.ToFieldSet).
func ToFieldSet(v any, t *Type) (*fieldpath.Set, error) {
	s := fieldpath.NewSet()
	if err := toFieldSet(s, nil, v, t); err != nil {
		return nil, err
	}
	return s, nil
}

func toFieldSet(s *fieldpath.Set, p fieldpath.Path, v any, t *Type) error {
	if err := checkKind(p, v, t); err != nil {
		return err
	}
	switch t.Kind {
	case List:
		if t.ListType == ListAtomic {
			s.Insert(p)
			return nil
		}
		items, _ := v.([]any)
		seen := map[string]bool{}
		for i, item := range items {
			pe, err := listItemElement(t, item)
			if err != nil {
				return errorAt(p, "element %d: %v", i, err)
			}
			// An applied configuration may name an element once only
			// (SMD validates it without AllowDuplicates).
			if seen[elementKey(pe)] {
				return errorAt(p, "duplicate entries for key %v", pe)
			}
			seen[elementKey(pe)] = true
			ip := append(slices.Clip(p), pe)
			if err := toFieldSet(s, ip, item, t.Elem); err != nil {
				return err
			}
			s.Insert(ip)
		}
	case Struct, Map:
		if t.Atomic {
			s.Insert(p)
			return nil
		}
		m, _ := v.(map[string]any)
		for key, child := range m {
			ct, declared := childType(t, key)
			cp := append(slices.Clip(p), fieldpath.Field(key))
			if ct == nil {
				return errorAt(cp, "field not declared in schema")
			}
			if err := toFieldSet(s, cp, child, ct); err != nil {
				return err
			}
			if cm, isMap := child.(map[string]any); child == nil || (isMap && len(cm) == 0) || !declared {
				s.Insert(cp)
			}
		}
	default:
		s.Insert(p)
	}
	return nil
}

// childType is the type of a struct's field or a map's value, and whether
// the key is a declared field; for a struct without such a field, its Elem
// (the type of fields it keeps without declaring them), usually nil.
func childType(t *Type, key string) (*Type, bool) {
	if t.Kind == Struct {
		if ft, ok := t.Fields[key]; ok {
			return ft, true
		}
	}
	return t.Elem, false
}

// checkKind refuses a value of the wrong JSON kind; null fits anything.
func checkKind(p fieldpath.Path, v any, t *Type) error {
	if v == nil {
		return nil
	}
	switch t.Kind {
	case Struct, Map:
		if _, ok := v.(map[string]any); !ok {
			return errorAt(p, "expected map, got %s", describe(v))
		}
	case List:
		if _, ok := v.([]any); !ok {
			return errorAt(p, "expected list, got %s", describe(v))
		}
	case Scalar:
		got := describe(v)
		switch {
		case got == "map" || got == "list":
			return errorAt(p, "expected %s, got %s", t.ScalarType, got)
		case t.ScalarType == "string" && got != "string",
			t.ScalarType == "numeric" && got != "number",
			t.ScalarType == "boolean" && got != "boolean":
			return errorAt(p, "expected %s, got %s", t.ScalarType, got)
		}
	}
	return nil
}
