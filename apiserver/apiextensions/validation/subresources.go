package validation

import (
	"sort"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/cel"
	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema"
)

func sortStrings(s []string) { sort.Strings(s) }

// validateSubresources: the scale paths are simple JSON paths, spec
// replicas under .spec, status replicas under .status, the selector under
// either. The paths keep Kubernetes' dotted child names
// ("scale.specReplicasPath").
func validateSubresources(s *api.CustomResourceSubresources, p field.Path) field.ErrorList {
	if s == nil || s.Scale == nil {
		return nil
	}
	var errs field.ErrorList
	sc := s.Scale
	check := func(name, value, prefix, under string) {
		fp := p.Child("scale." + name)
		if value == "" {
			errs = append(errs, field.Required(fp, ""))
			return
		}
		if pe := validateSimpleJSONPath(value, fp); len(pe) > 0 {
			errs = append(errs, pe...)
		} else if !strings.HasPrefix(value, prefix) {
			errs = append(errs, field.Invalid(fp, value, "should be a json path under "+under))
		}
	}
	check("specReplicasPath", sc.SpecReplicasPath, ".spec.", ".spec")
	check("statusReplicasPath", sc.StatusReplicasPath, ".status.", ".status")
	if lp := sc.LabelSelectorPath; lp != nil && *lp != "" {
		fp := p.Child("scale.labelSelectorPath")
		if pe := validateSimpleJSONPath(*lp, fp); len(pe) > 0 {
			errs = append(errs, pe...)
		} else if !strings.HasPrefix(*lp, ".spec.") && !strings.HasPrefix(*lp, ".status.") {
			errs = append(errs, field.Invalid(fp, *lp, "should be a json path under either .spec or .status"))
		}
	}
	return errs
}

func validateSimpleJSONPath(s string, p field.Path) field.ErrorList {
	switch {
	case s == "":
		return field.ErrorList{field.Invalid(p, s, "must not be empty")}
	case s[0] != '.':
		return field.ErrorList{field.Invalid(p, s, "must be a simple json path starting with .")}
	}
	return nil
}

var (
	printerColumnTypes   = []string{"boolean", "date", "integer", "number", "string"}
	printerColumnFormats = []string{"byte", "date", "date-time", "double", "float", "int32", "int64", "password"}
)

// validateColumn checks one additionalPrinterColumns entry. Its JSON path
// is reported as "JSONPath", the internal field's name, as Kubernetes does.
func validateColumn(c *api.CustomResourceColumnDefinition, p field.Path) field.ErrorList {
	var errs field.ErrorList
	if c.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	oneOf := "must be one of " + strings.Join(printerColumnTypes, ",")
	switch {
	case c.Type == "":
		errs = append(errs, field.Required(p.Child("type"), oneOf))
	case !contains(printerColumnTypes, c.Type):
		errs = append(errs, field.Invalid(p.Child("type"), c.Type, oneOf))
	}
	if c.Format != "" && !contains(printerColumnFormats, c.Format) {
		errs = append(errs, field.Invalid(p.Child("format"), c.Format, "must be one of "+strings.Join(printerColumnFormats, ",")))
	}
	if c.JSONPath == "" {
		errs = append(errs, field.Required(p.Child("JSONPath"), ""))
	} else {
		errs = append(errs, validateSimpleJSONPath(c.JSONPath, p.Child("JSONPath"))...)
	}
	return errs
}

// MaxSelectableFields is how many selectable fields a version may have.
const MaxSelectableFields = 8

// validateSelectableFields: each is a dotted path from the root, through
// properties (no ['…'] steps), to a string, boolean or integer field
// outside metadata, and none repeats.
func validateSelectableFields(fields []api.SelectableField, s *schema.Structural, p field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, f := range fields {
		fp := p.Index(i).Child("jsonPath")
		if f.JSONPath == "" {
			errs = append(errs, field.Required(fp, ""))
			continue
		}
		normalized, target, err := cel.ValidFieldPath(f.JSONPath, s, false)
		if err != nil {
			errs = append(errs, field.Invalid(fp, f.JSONPath, "is an invalid path: "+err.Error()))
			continue
		}
		if normalized == "metadata" || strings.HasPrefix(normalized, "metadata.") || strings.HasPrefix(normalized, "metadata[") {
			errs = append(errs, field.Invalid(fp, f.JSONPath, "must not point to fields in metadata"))
		}
		if target == nil || (target.Type != "string" && target.Type != "boolean" && target.Type != "integer") {
			errs = append(errs, field.Invalid(fp, f.JSONPath, "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."))
		}
		if seen[normalized] {
			errs = append(errs, field.Duplicate(fp, f.JSONPath))
		}
		seen[normalized] = true
	}
	if len(seen) > MaxSelectableFields {
		errs = append(errs, field.TooMany(p, len(seen), MaxSelectableFields))
	}
	return errs
}
