package schema

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"

	"kubeloop/apiserver/apiextensions/field"
)

// level is where a node sits: the root, an array's items, or an object's
// field (a property or additionalProperties). Some rules depend on it.
type level int

const (
	rootLevel level = iota
	itemLevel
	fieldLevel
)

// ValidateStructural checks the structural-schema rules on s, whose CRD
// field path is p (".../schema.openAPIV3Schema"): every node has a type
// unless it is int-or-string or preserves unknown fields, the root is an
// object, no additionalProperties at the root or beside an embedded
// resource, metadata may only restrict name and generateName, junctor
// branches hold value validations only, and everything a branch names is
// also specified structurally. The errors are sorted by message, as
// Kubernetes sorts them.
func ValidateStructural(p field.Path, s *Structural) field.ErrorList {
	errs := validateInvariants(s, rootLevel, p)
	errs = append(errs, validateCompleteness(s, p)...)
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errs
}

func validateInvariants(s *Structural, lvl level, p field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	if s.Type == "array" && s.Items == nil {
		errs = append(errs, field.Required(p.Child("items"), "must be specified"))
	}
	errs = append(errs, validateInvariants(s.Items, itemLevel, p.Child("items"))...)
	for _, k := range sortedKeys(s.Properties) {
		v := s.Properties[k]
		errs = append(errs, validateInvariants(&v, fieldLevel, p.Child("properties").Key(k))...)
	}
	if s.AdditionalProperties != nil {
		if lvl == rootLevel {
			errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must not be used at the root"))
		}
		errs = append(errs, validateInvariants(s.AdditionalProperties.Structural, fieldLevel, p.Child("additionalProperties"))...)
	}

	if s.XIntOrString && s.XPreserveUnknownFields {
		errs = append(errs, field.Invalid(p.Child("x-kubernetes-preserve-unknown-fields"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.XIntOrString && s.XEmbeddedResource {
		errs = append(errs, field.Invalid(p.Child("x-kubernetes-embedded-resource"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	errs = append(errs, validateValueValidation(s.ValueValidation, isIntOrStringAnyOf(s), isIntOrStringAllOf(s), p)...)

	switch {
	case s.XEmbeddedResource && s.Type != "object":
		if s.Type == "" {
			errs = append(errs, field.Required(p.Child("type"), "must be object if x-kubernetes-embedded-resource is true"))
		} else {
			errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
		}
	case s.Type == "" && !s.XIntOrString && !s.XPreserveUnknownFields:
		switch lvl {
		case rootLevel:
			errs = append(errs, field.Required(p.Child("type"), "must not be empty at the root"))
		case itemLevel:
			errs = append(errs, field.Required(p.Child("type"), "must not be empty for specified array items"))
		case fieldLevel:
			errs = append(errs, field.Required(p.Child("type"), "must not be empty for specified object fields"))
		}
	}
	if s.XEmbeddedResource && s.AdditionalProperties != nil {
		errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == rootLevel && s.Type != "" && s.Type != "object" {
		errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be object at the root"))
	}

	// The root and an embedded resource are Kubernetes objects: kind and
	// apiVersion are strings, metadata is ObjectMeta.
	checkMetadata := lvl == rootLevel || s.XEmbeddedResource
	if kind, ok := s.Properties["kind"]; ok && checkMetadata && kind.Type != "string" {
		errs = append(errs, field.Invalid(p.Child("properties").Key("kind").Child("type"), kind.Type, "must be string"))
	}
	if av, ok := s.Properties["apiVersion"]; ok && checkMetadata && av.Type != "string" {
		errs = append(errs, field.Invalid(p.Child("properties").Key("apiVersion").Child("type"), av.Type, "must be string"))
	}
	if md, ok := s.Properties["metadata"]; ok {
		errs = append(errs, validateMetadata(&md, checkMetadata, lvl, p.Child("properties").Key("metadata"))...)
	}
	if s.XEmbeddedResource && !s.XPreserveUnknownFields && len(s.Properties) == 0 {
		errs = append(errs, field.Required(p.Child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return errs
}

// validateMetadata: metadata is an object; at the root, the schema may say
// nothing about it but restrict name and generateName (the apiserver
// validates ObjectMeta itself).
func validateMetadata(s *Structural, checkMetadata bool, lvl level, p field.Path) field.ErrorList {
	var errs field.ErrorList
	if checkMetadata && s.Type != "object" {
		errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be object"))
	}
	if lvl != rootLevel {
		return errs
	}
	rest := *s // a shallow copy: only its top-level fields are cleared
	_, name := rest.Properties["name"]
	_, generateName := rest.Properties["generateName"]
	if (name && generateName && len(rest.Properties) == 2) || ((name || generateName) && len(rest.Properties) == 1) {
		rest.Properties = nil
	}
	rest.props, rest.propsOf = nil, nil // Property's index, not the schema
	rest.Type = ""
	rest.Default = nil // forbidden at the root by CRD validation, with its own message
	if rest.ValueValidation == nil {
		rest.ValueValidation = &ValueValidation{}
	}
	if !reflect.DeepEqual(rest, Structural{ValueValidation: &ValueValidation{}}) {
		errs = append(errs, field.Forbidden(p, "must not specify anything other than name and generateName, but metadata is implicitly specified"))
	}
	return errs
}

// The int-or-string idiom kubebuilder and IntOrString's OpenAPI emit:
// anyOf: [{type: integer}, {type: string}], directly or as allOf[0]. Its
// branches name a type, which is otherwise forbidden in a branch.
var intOrStringAnyOf = []NestedValueValidation{
	{ForbiddenGenerics: Generic{Type: "integer"}},
	{ForbiddenGenerics: Generic{Type: "string"}},
}

func isIntOrStringAnyOf(s *Structural) bool {
	return s.ValueValidation != nil && len(s.ValueValidation.AnyOf) == 2 &&
		reflect.DeepEqual(s.ValueValidation.AnyOf, intOrStringAnyOf)
}

func isIntOrStringAllOf(s *Structural) bool {
	return s.ValueValidation != nil && len(s.ValueValidation.AllOf) >= 1 &&
		len(s.ValueValidation.AllOf[0].AnyOf) == 2 && reflect.DeepEqual(s.ValueValidation.AllOf[0].AnyOf, intOrStringAnyOf)
}

func validateValueValidation(v *ValueValidation, skipAnyOf, skipFirstAllOfAnyOf bool, p field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	var errs field.ErrorList
	if !skipAnyOf {
		for i := range v.AnyOf {
			errs = append(errs, validateNested(&v.AnyOf[i], false, p.Child("anyOf").Index(i))...)
		}
	}
	for i := range v.AllOf {
		errs = append(errs, validateNested(&v.AllOf[i], skipFirstAllOfAnyOf && i == 0, p.Child("allOf").Index(i))...)
	}
	for i := range v.OneOf {
		errs = append(errs, validateNested(&v.OneOf[i], false, p.Child("oneOf").Index(i))...)
	}
	errs = append(errs, validateNested(v.Not, false, p.Child("not"))...)
	if v.Pattern != "" {
		if _, err := regexp.Compile(v.Pattern); err != nil {
			errs = append(errs, field.Invalid(p.Child("pattern"), v.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
		}
	}
	return errs
}

// validateNested: a junctor branch may restrict values but not describe
// them (no type, default, title, description, nullable or extensions),
// and may not restrict metadata.
func validateNested(v *NestedValueValidation, skipAnyOf bool, p field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	errs := validateValueValidation(&v.ValueValidation, skipAnyOf, false, p)
	errs = append(errs, validateNested(v.Items, false, p.Child("items"))...)
	for _, k := range sortedKeys(v.Properties) {
		n := v.Properties[k]
		errs = append(errs, validateNested(&n, false, p.Child("properties").Key(k))...)
	}
	g, x := &v.ForbiddenGenerics, &v.ForbiddenExtensions
	if g.Type != "" {
		errs = append(errs, field.Forbidden(p.Child("type"), "must be empty to be structural"))
	}
	if v.AdditionalProperties != nil {
		errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must be undefined to be structural"))
	}
	if g.Default != nil {
		errs = append(errs, field.Forbidden(p.Child("default"), "must be undefined to be structural"))
	}
	if g.Title != "" {
		errs = append(errs, field.Forbidden(p.Child("title"), "must be empty to be structural"))
	}
	if g.Description != "" {
		errs = append(errs, field.Forbidden(p.Child("description"), "must be empty to be structural"))
	}
	if g.Nullable {
		errs = append(errs, field.Forbidden(p.Child("nullable"), "must be false to be structural"))
	}
	if x.XPreserveUnknownFields {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-preserve-unknown-fields"), "must be false to be structural"))
	}
	if x.XEmbeddedResource {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-embedded-resource"), "must be false to be structural"))
	}
	if x.XIntOrString {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-int-or-string"), "must be false to be structural"))
	}
	if len(x.XListMapKeys) > 0 {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-list-map-keys"), "must be empty to be structural"))
	}
	if x.XListType != nil {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-list-type"), "must be undefined to be structural"))
	}
	if x.XMapType != nil {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-map-type"), "must be undefined to be structural"))
	}
	if len(v.XValidations) > 0 {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-validations"), "must be empty to be structural"))
	}
	if _, ok := v.Properties["metadata"]; ok {
		errs = append(errs, field.Forbidden(p.Child("properties").Key("metadata"), "must not be specified in a nested context"))
	}
	return errs
}

// validateCompleteness: every property or items a junctor branch talks
// about must also be specified structurally, at the same place.
func validateCompleteness(s *Structural, p field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	return completeValueValidation(s.ValueValidation, s, p, p)
}

func completeValueValidation(v *ValueValidation, s *Structural, sPath, vPath field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	if s == nil {
		return field.ErrorList{field.Required(sPath, "because it is defined in "+vPath.String())}
	}
	errs := completeNested(v.Not, s, sPath, vPath.Child("not"))
	for i := range v.AllOf {
		errs = append(errs, completeNested(&v.AllOf[i], s, sPath, vPath.Child("allOf").Index(i))...)
	}
	for i := range v.AnyOf {
		errs = append(errs, completeNested(&v.AnyOf[i], s, sPath, vPath.Child("anyOf").Index(i))...)
	}
	for i := range v.OneOf {
		errs = append(errs, completeNested(&v.OneOf[i], s, sPath, vPath.Child("oneOf").Index(i))...)
	}
	return errs
}

func completeNested(v *NestedValueValidation, s *Structural, sPath, vPath field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	if s == nil {
		return field.ErrorList{field.Required(sPath, "because it is defined in "+vPath.String())}
	}
	errs := completeValueValidation(&v.ValueValidation, s, sPath, vPath)
	errs = append(errs, completeNested(v.Items, s.Items, sPath.Child("items"), vPath.Child("items"))...)
	for _, k := range sortedKeys(v.Properties) {
		n := v.Properties[k]
		sp, ok := s.Properties[k]
		if !ok {
			errs = append(errs, field.Required(sPath.Child("properties").Key(k), "because it is defined in "+vPath.Child("properties").Key(k).String()))
			continue
		}
		errs = append(errs, completeNested(&n, &sp, sPath.Child("properties").Key(k), vPath.Child("properties").Key(k))...)
	}
	return errs
}

// sortedKeys makes the walks deterministic: Go's map order is random, and
// error lists are compared in tests and read by people.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
