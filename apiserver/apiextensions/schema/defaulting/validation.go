package defaulting

import (
	"reflect"

	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema"
	"kubeloop/apiserver/apiextensions/schema/pruning"
	"kubeloop/apiserver/apiextensions/schema/validate"
)

// ValidateDefaults checks every default of s, whose CRD field path is p:
// it must already be pruned ("must not have unknown fields"), and valid
// against its own node's schema (types, value validations, embedded
// resources). Errors are at "<node>.default". isResourceRoot says s is a
// version's whole schema, whose apiVersion, kind and metadata are kept by
// pruning.
func ValidateDefaults(p field.Path, s *schema.Structural, isResourceRoot bool) field.ErrorList {
	if s == nil {
		return nil
	}
	if isResourceRoot && !s.XEmbeddedResource {
		clone := *s
		clone.XEmbeddedResource = true
		s = &clone
	}
	return validateDefaults(p, s)
}

func validateDefaults(p field.Path, s *schema.Structural) field.ErrorList {
	var errs field.ErrorList
	if s.Default != nil {
		dp := p.Child("default")
		pruned := schema.DeepCopyJSONValue(s.Default)
		pruning.Prune(pruned, s, s.XEmbeddedResource)
		if !reflect.DeepEqual(pruned, s.Default) {
			errs = append(errs, field.Invalid(dp, s.Default, "must not have unknown fields"))
		}
		if embeddedErrs := validate.ValidateEmbeddedResources(dp, s.Default, s); len(embeddedErrs) > 0 {
			errs = append(errs, embeddedErrs...)
		} else if v, err := validate.New(s); err != nil {
			errs = append(errs, field.Invalid(dp, s.Default, err.Error()))
		} else {
			errs = append(errs, v.ValidateValueAt(dp, s.Default)...)
		}
	}
	if s.Items != nil {
		errs = append(errs, validateDefaults(p.Child("items"), s.Items)...)
	}
	for _, k := range sortedKeys(s.Properties) {
		prop := s.Properties[k]
		errs = append(errs, validateDefaults(p.Child("properties").Key(k), &prop)...)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		errs = append(errs, validateDefaults(p.Child("additionalProperties"), s.AdditionalProperties.Structural)...)
	}
	return errs
}

func sortedKeys(m map[string]schema.Structural) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}
