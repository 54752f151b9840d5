package defaulting

import (
	"context"
	"reflect"

	"kubeloop/apiserver/apiextensions/cel"
	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema"
	"kubeloop/apiserver/apiextensions/schema/pruning"
	"kubeloop/apiserver/apiextensions/schema/validate"
)

// ValidateDefaults checks every default of s, whose CRD field path is p:
// it must already be pruned ("must not have unknown fields"), and valid
// against its own node's schema (types, value validations, embedded
// resources), then against the CEL rules of its node and below. Errors are
// at "<node>.default". isResourceRoot says s is a
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
	compiler, err := cel.DefaultCompiler()
	if err != nil {
		return field.ErrorList{field.InternalError(p, err)}
	}
	d := &defaultsCheck{root: s, compiler: compiler, budget: cel.RuntimeCELCostBudget}
	return d.validate(p, s)
}

// defaultsCheck walks a schema's defaults; every default's CEL rules
// share one runtime budget, as one object's would.
type defaultsCheck struct {
	root     *schema.Structural
	compiler *cel.Compiler
	budget   int64
}

func (d *defaultsCheck) validate(p field.Path, s *schema.Structural) field.ErrorList {
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
		} else if valueErrs := v.ValidateValueAt(dp, s.Default); len(valueErrs) > 0 {
			errs = append(errs, valueErrs...)
		} else if d.budget > 0 {
			// The default must also pass the rules of its node and below,
			// transition rules included (with itself as the old value).
			rules := d.compiler.NewValidator(s, s == d.root || s.XEmbeddedResource)
			var ruleErrs field.ErrorList
			ruleErrs, d.budget = rules.Validate(context.Background(), dp, s.Default, s.Default, d.budget)
			errs = append(errs, ruleErrs...)
		}
	}
	if s.Items != nil {
		errs = append(errs, d.validate(p.Child("items"), s.Items)...)
	}
	for _, k := range sortedKeys(s.Properties) {
		prop := s.Properties[k]
		errs = append(errs, d.validate(p.Child("properties").Key(k), &prop)...)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		errs = append(errs, d.validate(p.Child("additionalProperties"), s.AdditionalProperties.Structural)...)
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
