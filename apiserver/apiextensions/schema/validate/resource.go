package validate

import "kubeloop/apiserver/apiextensions/field"

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
