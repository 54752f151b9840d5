package validate

import (
	"encoding/json"

	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema"
)

// ValidateListSetsAndMaps reports the duplicates x-kubernetes-list-type
// forbids: equal elements of a set, and elements of a map list with equal
// keys (a missing key counts as a value of its own). Every duplicate after
// the first occurrence is one error, at its index. Paths use [key] for map
// entries, as Kubernetes' listtype package does.
func ValidateListSetsAndMaps(p field.Path, s *schema.Structural, obj map[string]any) field.ErrorList {
	if s == nil || obj == nil {
		return nil
	}
	var errs field.ErrorList
	for _, k := range sortedKeys(obj) {
		switch {
		case s.Properties != nil && hasKey(s.Properties, k):
			sub, _ := s.Property(k)
			errs = append(errs, listsIn(p.Child(k), sub, obj[k])...)
		case s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil:
			errs = append(errs, listsIn(p.Key(k), s.AdditionalProperties.Structural, obj[k])...)
		}
	}
	return errs
}

func hasKey[V any](m map[string]V, k string) bool { _, ok := m[k]; return ok }

func listsIn(p field.Path, s *schema.Structural, x any) field.ErrorList {
	switch t := x.(type) {
	case []any:
		return listArray(p, s, t)
	case map[string]any:
		return ValidateListSetsAndMaps(p, s, t)
	}
	return nil
}

func listArray(p field.Path, s *schema.Structural, list []any) field.ErrorList {
	var errs field.ErrorList
	if s.XListType != nil {
		switch *s.XListType {
		case "set":
			for _, i := range duplicates(list) {
				errs = append(errs, field.Duplicate(p.Index(i), list[i]))
			}
		case "map":
			errs = append(errs, listMap(p, s, list)...)
		}
	}
	if s.Items != nil {
		for i, e := range list {
			errs = append(errs, listsIn(p.Index(i), s.Items, e)...)
		}
	}
	return errs
}

// missingKey stands for an absent key field.
type missingKey struct{}

func listMap(p field.Path, s *schema.Structural, list []any) field.ErrorList {
	for i, x := range list {
		if _, ok := x.(map[string]any); x != nil && !ok {
			return field.ErrorList{field.Invalid(p.Index(i), x, "must be an object for an array of list-type map")}
		}
	}
	keys := make([]any, len(list))
	for i, x := range list {
		m, _ := x.(map[string]any)
		if len(s.XListMapKeys) == 1 {
			k, ok := m[s.XListMapKeys[0]]
			if !ok {
				keys[i] = missingKey{}
			} else {
				keys[i] = k
			}
			continue
		}
		key := map[string]any{}
		for _, kf := range s.XListMapKeys {
			if v, ok := m[kf]; ok {
				key[kf] = v
			}
		}
		keys[i] = key
	}
	var errs field.ErrorList
	for _, i := range duplicates(keys) {
		switch k := keys[i].(type) {
		case missingKey:
			errs = append(errs, field.Duplicate(p.Index(i), map[string]any{}))
		case map[string]any:
			errs = append(errs, field.Duplicate(p.Index(i), k))
		default:
			errs = append(errs, field.Duplicate(p.Index(i), map[string]any{s.XListMapKeys[0]: k}))
		}
	}
	return errs
}

// duplicates returns the index of the second occurrence of every value
// seen more than once (a third occurrence is not reported again, as in
// Kubernetes). Compound values compare by their JSON.
func duplicates(list []any) []int {
	if len(list) <= 1 {
		return nil
	}
	seen := make(map[any]int, len(list))
	var out []int
	for i, x := range list {
		var key any = x
		switch x.(type) {
		case map[string]any, []any:
			b, _ := json.Marshal(x) // unstructured values always marshal
			key = compound(b)
		}
		seen[key]++
		if seen[key] == 2 {
			out = append(out, i)
		}
	}
	return out
}

// compound keys the JSON of a map or list apart from an equal string.
type compound string

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}
