package validate

import (
	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema"
)

// ValidateCustomResource is everything the schema says about a custom
// resource on create and update, in Kubernetes' order: types and value
// validations, embedded resources, list sets and maps. Every violation is
// in the list. CEL rules (package cel) and ObjectMeta (the apiserver's own
// metadata validation) come on top.
func (v *Validator) ValidateCustomResource(obj map[string]any) field.ErrorList {
	if v == nil || v.root == nil {
		return nil
	}
	errs := v.ValidateValue(obj)
	if v.embedded {
		errs = append(errs, ValidateEmbeddedResources("", obj, v.root)...)
	}
	if v.lists {
		errs = append(errs, ValidateListSetsAndMaps("", v.root, obj)...)
	}
	return errs
}

// anyNode reports whether is holds for s or any schema below it.
func anyNode(s *schema.Structural, is func(*schema.Structural) bool) bool {
	if s == nil {
		return false
	}
	if is(s) || anyNode(s.Items, is) {
		return true
	}
	for k := range s.Properties {
		if p, _ := s.Property(k); anyNode(p, is) {
			return true
		}
	}
	return s.AdditionalProperties != nil && anyNode(s.AdditionalProperties.Structural, is)
}
