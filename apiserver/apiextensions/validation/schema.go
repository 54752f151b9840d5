package validation

import (
	"fmt"
	"reflect"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/cel"
	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema"
	"kubeloop/apiserver/apiextensions/schema/defaulting"
)

// allowedAtRootWithStatus are the keywords the root of a schema may use
// when the status subresource is on (the apiserver must be able to split
// the object into spec and status).
var allowedAtRootWithStatus = []string{"Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum", "ExclusiveMinimum", "MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems", "UniqueItems", "MultipleOf", "Required", "Items", "Properties", "ExternalDocs", "Example", "XPreserveUnknownFields", "XValidations"}

// validateCustomResourceValidation checks a version's schema: the root's
// restrictions, the keyword rules of every node, then — only if those
// pass — the structural rules, then the defaults. It returns the
// structural schema when it could be built.
func validateCustomResourceValidation(v *api.CustomResourceValidation, statusEnabled bool, p field.Path) (*schema.Structural, field.ErrorList) {
	if v == nil || v.OpenAPIV3Schema == nil {
		return nil, nil
	}
	s := v.OpenAPIV3Schema
	sp := p.Child("openAPIV3Schema")
	var errs field.ErrorList
	if statusEnabled {
		errs = append(errs, validateRootWithStatus(s, sp)...)
	}
	if s.Nullable {
		errs = append(errs, field.Forbidden(sp.Child("nullable"), "nullable cannot be true at the root"))
	}
	var ss *schema.Structural
	var structuralErrs field.ErrorList
	if built, err := schema.NewStructural(s); err != nil {
		structuralErrs = field.ErrorList{field.Invalid(sp, "", err.Error())}
	} else if se := schema.ValidateStructural(sp, built); len(se) > 0 {
		errs = append(errs, se...)
	} else if de := defaulting.ValidateDefaults(sp, built, true); len(de) > 0 {
		errs = append(errs, de...)
		ss = built
	} else {
		ss = built
	}
	errs = append(errs, validateOpenAPISchema(s, sp, nodeContext{root: true})...)
	if len(errs) == 0 {
		errs = structuralErrs
	}
	// The rules are compiled (and their cost estimated) only for a schema
	// that is otherwise valid: their types come from it.
	if len(errs) == 0 && ss != nil {
		compiler, err := cel.DefaultCompiler()
		if err != nil {
			return ss, field.ErrorList{field.InternalError(sp, err)}
		}
		errs = compiler.ValidateRules(sp, ss)
	}
	return ss, errs
}

func validateRootWithStatus(s *api.JSONSchemaProps, p field.Path) field.ErrorList {
	v := reflect.ValueOf(s).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.IsZero() {
			continue
		}
		name := v.Type().Field(i).Name
		if name == "Type" {
			if s.Type != "object" {
				return field.ErrorList{field.Invalid(p.Child("type"), s.Type, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`)}
			}
			continue
		}
		allowed := false
		for _, a := range allowedAtRootWithStatus {
			allowed = allowed || a == name
		}
		if !allowed {
			return field.ErrorList{field.Invalid(p, "", fmt.Sprintf("only %v fields are allowed at the root of the schema if the status subresource is enabled", allowedAtRootWithStatus))}
		}
	}
	return nil
}

// nodeContext is what a node's rules depend on above it.
type nodeContext struct {
	root bool
	// forbidDefaults is why defaults are forbidden here ("" allows them).
	forbidDefaults string
	insideMeta     bool
}

var openAPIV3Types = []string{"array", "boolean", "integer", "number", "object", "string"}

// validateOpenAPISchema is the keyword rules of every node: the types
// allowed, the keywords a CRD may not use, properties beside
// additionalProperties, the x-kubernetes-* extensions' consistency,
// x-kubernetes-validations' well-formedness (not their compilation), and
// no defaults in the root's metadata.
func validateOpenAPISchema(s *api.JSONSchemaProps, p field.Path, ctx nodeContext) field.ErrorList {
	if s == nil {
		return nil
	}
	errs := keywordRules(s, p, ctx)
	if s.UniqueItems {
		errs = append(errs, field.Forbidden(p.Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	if ap := s.AdditionalProperties; ap != nil {
		if len(s.Properties) != 0 && (!ap.Allows || ap.Schema != nil) {
			errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
		}
		sub := nodeContext{forbidDefaults: ctx.forbidDefaults, insideMeta: ctx.insideMeta}
		if ctx.insideMeta {
			sub.forbidDefaults = "inside additionalProperties applying to object metadata"
		}
		errs = append(errs, validateOpenAPISchema(ap.Schema, p.Child("additionalProperties"), sub)...)
	}
	for _, k := range sortedProps(s.Properties) {
		prop := s.Properties[k]
		sub := nodeContext{forbidDefaults: ctx.forbidDefaults, insideMeta: ctx.insideMeta}
		if (ctx.root || s.XEmbeddedResource) && (k == "metadata" || k == "kind" || k == "apiVersion") {
			sub.insideMeta = true
			if ctx.root {
				sub.forbidDefaults = "in top-level " + k
			}
		}
		errs = append(errs, validateOpenAPISchema(&prop, p.Child("properties").Key(k), sub)...)
	}
	inner := nodeContext{forbidDefaults: ctx.forbidDefaults, insideMeta: ctx.insideMeta}
	errs = append(errs, validateOpenAPISchema(s.Not, p.Child("not"), inner)...)
	for i := range s.AllOf {
		errs = append(errs, validateOpenAPISchema(&s.AllOf[i], p.Child("allOf").Index(i), inner)...)
	}
	for i := range s.OneOf {
		errs = append(errs, validateOpenAPISchema(&s.OneOf[i], p.Child("oneOf").Index(i), inner)...)
	}
	for i := range s.AnyOf {
		errs = append(errs, validateOpenAPISchema(&s.AnyOf[i], p.Child("anyOf").Index(i), inner)...)
	}
	if s.Items != nil {
		errs = append(errs, validateOpenAPISchema(s.Items.Schema, p.Child("items"), inner)...)
		for i := range s.Items.JSONSchemas {
			errs = append(errs, validateOpenAPISchema(&s.Items.JSONSchemas[i], p.Child("items").Index(i), inner)...)
		}
	}
	errs = append(errs, extensionRules(s, p)...)
	return append(errs, validationRuleRules(s, p)...)
}

func keywordRules(s *api.JSONSchemaProps, p field.Path, ctx nodeContext) field.ErrorList {
	var errs field.ErrorList
	if s.Type != "" && !contains(openAPIV3Types, s.Type) {
		errs = append(errs, field.NotSupported(p.Child("type"), s.Type, openAPIV3Types))
	}
	if s.Default != nil && ctx.forbidDefaults != "" {
		errs = append(errs, field.Forbidden(p.Child("default"), "must not be set "+ctx.forbidDefaults))
	}
	forbidden := []struct {
		set  bool
		name string
	}{
		{s.ID != "", "id"},
		{s.AdditionalItems != nil, "additionalItems"},
		{len(s.PatternProperties) != 0, "patternProperties"},
		{len(s.Definitions) != 0, "definitions"},
		{s.Dependencies != nil, "dependencies"},
		{s.Ref != nil, "$ref"},
	}
	for _, f := range forbidden {
		if f.set {
			errs = append(errs, field.Forbidden(p.Child(f.name), f.name+" is not supported"))
		}
	}
	if s.Type == "null" {
		errs = append(errs, field.Forbidden(p.Child("type"), "type cannot be set to null, use nullable as an alternative"))
	}
	if s.Items != nil && len(s.Items.JSONSchemas) != 0 {
		errs = append(errs, field.Forbidden(p.Child("items"), "items must be a schema object and not an array"))
	}
	if ctx.insideMeta && s.XEmbeddedResource {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"))
	}
	return errs
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func sortedProps(m map[string]api.JSONSchemaProps) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}

// extensionRules checks x-kubernetes-preserve-unknown-fields, -map-type,
// -list-type and -list-map-keys against the node's type and items.
func extensionRules(s *api.JSONSchemaProps, p field.Path) field.ErrorList {
	var errs field.ErrorList
	if v := s.XPreserveUnknownFields; v != nil && !*v {
		errs = append(errs, field.Invalid(p.Child("x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined"))
	}
	if s.XMapType != nil && s.Type != "object" {
		errs = append(errs, typeMustBe(p, s.Type, "object", "x-kubernetes-map-type is specified"))
	}
	if m := s.XMapType; m != nil && *m != "atomic" && *m != "granular" {
		errs = append(errs, field.NotSupported(p.Child("x-kubernetes-map-type"), *m, []string{"atomic", "granular"}))
	}
	lt := s.XListType
	switch {
	case lt != nil && s.Type != "array":
		errs = append(errs, typeMustBe(p, s.Type, "array", "x-kubernetes-list-type is specified"))
	case lt != nil && *lt == "set" && s.Items != nil && s.Items.Schema != nil:
		is := s.Items.Schema
		if is.Type == "array" && is.XListType != nil && *is.XListType != "atomic" {
			errs = append(errs, field.Invalid(p.Child("items", "x-kubernetes-list-type"), *is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
		}
		if is.Type == "object" && (is.XMapType == nil || *is.XMapType != "atomic") {
			errs = append(errs, field.Invalid(p.Child("items", "x-kubernetes-map-type"), is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
		}
	}
	if lt != nil && *lt != "atomic" && *lt != "set" && *lt != "map" {
		errs = append(errs, field.NotSupported(p.Child("x-kubernetes-list-type"), *lt, []string{"atomic", "set", "map"}))
	}
	if len(s.XListMapKeys) > 0 {
		if lt == nil {
			errs = append(errs, field.Required(p.Child("x-kubernetes-list-type"), "must be map if x-kubernetes-list-map-keys is non-empty"))
		} else if *lt != "map" {
			errs = append(errs, field.Invalid(p.Child("x-kubernetes-list-type"), *lt, "must be map if x-kubernetes-list-map-keys is non-empty"))
		}
	}
	if lt != nil && *lt == "map" {
		errs = append(errs, listMapRules(s, p)...)
	}
	return append(errs, listKeysRules(s, p)...)
}

func typeMustBe(p field.Path, typ, want, because string) *field.Error {
	if typ == "" {
		return field.Required(p.Child("type"), "must be "+want+" if "+because)
	}
	return field.Invalid(p.Child("type"), typ, "must be "+want+" if "+because)
}

func listMapRules(s *api.JSONSchemaProps, p field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(s.XListMapKeys) == 0 {
		errs = append(errs, field.Required(p.Child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
	}
	if s.Items == nil {
		return append(errs, field.Required(p.Child("items"), "must have a schema if x-kubernetes-list-type is map"))
	}
	is := s.Items.Schema
	if is == nil {
		return append(errs, field.Invalid(p.Child("items"), s.Items, "must only have a single schema if x-kubernetes-list-type is map"))
	}
	if is.Type != "object" {
		return append(errs, field.Invalid(p.Child("items", "type"), is.Type, "must be object if parent array's x-kubernetes-list-type is map"))
	}
	seen := map[string]bool{}
	for _, k := range s.XListMapKeys {
		if ks, ok := is.Properties[k]; !ok {
			errs = append(errs, field.Invalid(p.Child("x-kubernetes-list-map-keys"), s.XListMapKeys, "entries must all be names of item properties"))
		} else if ks.Type == "array" || ks.Type == "object" {
			errs = append(errs, field.Invalid(p.Child("items", "properties").Key(k).Child("type"), is.Type, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
		}
		if seen[k] {
			errs = append(errs, field.Invalid(p.Child("x-kubernetes-list-map-keys"), s.XListMapKeys, "must not contain duplicate entries"))
		}
		seen[k] = true
	}
	return errs
}

// listKeysRules: set and map items are not nullable, and a map list's key
// fields are required or defaulted and not nullable.
func listKeysRules(s *api.JSONSchemaProps, p field.Path) field.ErrorList {
	if s.Items == nil || s.Items.Schema == nil || s.XListType == nil || (*s.XListType != "set" && *s.XListType != "map") {
		return nil
	}
	var errs field.ErrorList
	is := s.Items.Schema
	if is.Nullable {
		errs = append(errs, field.Forbidden(p.Child("items", "nullable"), "cannot be nullable when x-kubernetes-list-type is "+*s.XListType))
	}
	if *s.XListType != "map" {
		return errs
	}
	for _, k := range s.XListMapKeys {
		ks, ok := is.Properties[k]
		if !ok {
			continue
		}
		if !contains(is.Required, k) && ks.Default == nil {
			errs = append(errs, field.Required(p.Child("items", "properties").Key(k).Child("default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
		}
		if ks.Nullable {
			errs = append(errs, field.Forbidden(p.Child("items", "properties").Key(k).Child("nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
		}
	}
	return errs
}

var supportedValidationReasons = []string{string(api.FieldValueDuplicate), string(api.FieldValueForbidden), string(api.FieldValueInvalid), string(api.FieldValueRequired)}

// validationRuleRules checks the shape of each x-kubernetes-validations
// rule. Compiling the rules and checking their cost is the CEL package's.
func validationRuleRules(s *api.JSONSchemaProps, p field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, r := range s.XValidations {
		rp := p.Child("x-kubernetes-validations").Index(i)
		rule, msg := strings.TrimSpace(r.Rule), strings.TrimSpace(r.Message)
		switch {
		case rule == "":
			errs = append(errs, field.Required(rp.Child("rule"), "rule is not specified"))
		case r.Message != "" && msg == "":
			errs = append(errs, field.Invalid(rp.Child("message"), r.Message, "must be non-empty if specified"))
		case strings.ContainsAny(msg, "\n\r"):
			errs = append(errs, field.Invalid(rp.Child("message"), r.Message, "must not contain line breaks"))
		case strings.ContainsAny(rule, "\n\r") && msg == "":
			errs = append(errs, field.Required(rp.Child("message"), "message must be specified if rule contains line breaks"))
		}
		if r.MessageExpression != "" && strings.TrimSpace(r.MessageExpression) == "" {
			errs = append(errs, field.Required(rp.Child("messageExpression"), "messageExpression must be non-empty if specified"))
		}
		if r.Reason != nil && !contains(supportedValidationReasons, string(*r.Reason)) {
			errs = append(errs, field.NotSupported(rp.Child("reason"), *r.Reason, supportedValidationReasons))
		}
		if r.FieldPath != "" && strings.TrimSpace(r.FieldPath) == "" {
			errs = append(errs, field.Invalid(rp.Child("fieldPath"), r.FieldPath, "must be non-empty if specified"))
		}
		if strings.ContainsAny(r.FieldPath, "\n\r") {
			errs = append(errs, field.Invalid(rp.Child("fieldPath"), r.FieldPath, "must not contain line breaks"))
		}
		if r.FieldPath != "" && !fieldPathValid(s, r.FieldPath) {
			errs = append(errs, field.Invalid(rp.Child("fieldPath"), r.FieldPath, "must be a valid path"))
		}
	}
	return errs
}

// fieldPathValid: a rule's fieldPath must lead, from the rule's node,
// to a field its schema specifies.
func fieldPathValid(s *api.JSONSchemaProps, path string) bool {
	ss, err := schema.NewStructural(s)
	if err != nil {
		return false
	}
	_, _, err = cel.ValidFieldPath(path, ss)
	return err == nil
}
