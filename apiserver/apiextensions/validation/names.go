package validation

import (
	"strings"

	"kubeloop/api"

	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema/validate"
)

// ValidateCustomResourceDefinitionNames checks spec.names (and
// status.acceptedNames): plural, singular, short names and categories are
// DNS-1035 labels; kind and listKind are too, up to case, and differ.
// Missing names are checked by the spec rules, after defaulting.
func ValidateCustomResourceDefinitionNames(n *api.CustomResourceDefinitionNames, p field.Path) field.ErrorList {
	var errs field.ErrorList
	label := func(fp field.Path, v string) {
		if msgs := validate.IsDNS1035Label(v); v != "" && len(msgs) > 0 {
			errs = append(errs, field.Invalid(fp, v, strings.Join(msgs, ",")))
		}
	}
	mixedCase := func(fp field.Path, v string) {
		if msgs := validate.IsDNS1035Label(strings.ToLower(v)); v != "" && len(msgs) > 0 {
			errs = append(errs, field.Invalid(fp, v, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
		}
	}
	label(p.Child("plural"), n.Plural)
	label(p.Child("singular"), n.Singular)
	mixedCase(p.Child("kind"), n.Kind)
	mixedCase(p.Child("listKind"), n.ListKind)
	for i, s := range n.ShortNames {
		if msgs := validate.IsDNS1035Label(s); len(msgs) > 0 {
			errs = append(errs, field.Invalid(p.Child("shortNames").Index(i), s, strings.Join(msgs, ",")))
		}
	}
	if n.Kind != "" && n.Kind == n.ListKind {
		errs = append(errs, field.Invalid(p.Child("listKind"), n.ListKind, "kind and listKind may not be the same"))
	}
	for i, c := range n.Categories {
		if msgs := validate.IsDNS1035Label(c); len(msgs) > 0 {
			errs = append(errs, field.Invalid(p.Child("categories").Index(i), c, strings.Join(msgs, ",")))
		}
	}
	return errs
}
