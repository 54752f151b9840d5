package validate

import (
	"sort"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema"
)

func sortStrings(s []string) { sort.Strings(s) }

// ValidateEmbeddedResources checks every x-kubernetes-embedded-resource
// object in obj as a Kubernetes object: apiVersion and kind are required
// non-empty strings, apiVersion parses as group/version, kind is a DNS-1035
// label up to case, and metadata is valid ObjectMeta. Paths use [key] for
// map entries, as Kubernetes' objectmeta package does.
func ValidateEmbeddedResources(p field.Path, obj any, s *schema.Structural) field.ErrorList {
	return embedded(p, obj, s)
}

func embedded(p field.Path, x any, s *schema.Structural) field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	switch t := x.(type) {
	case map[string]any:
		if s.XEmbeddedResource {
			errs = append(errs, embeddedResource(p, t)...)
		}
		for _, k := range sortedKeys(t) {
			if prop, ok := s.Property(k); ok {
				errs = append(errs, embedded(p.Child(k), t[k], prop)...)
			} else if s.AdditionalProperties != nil {
				errs = append(errs, embedded(p.Key(k), t[k], s.AdditionalProperties.Structural)...)
			}
		}
	case []any:
		for i, e := range t {
			errs = append(errs, embedded(p.Index(i), e, s.Items)...)
		}
	}
	return errs
}

func embeddedResource(p field.Path, x map[string]any) field.ErrorList {
	var errs field.ErrorList
	if _, ok := x["apiVersion"]; !ok {
		errs = append(errs, field.Required(p.Child("apiVersion"), ""))
	}
	if _, ok := x["kind"]; !ok {
		errs = append(errs, field.Required(p.Child("kind"), ""))
	}
	if v, ok := x["apiVersion"]; ok {
		switch s, isString := v.(string); {
		case !isString:
			errs = append(errs, field.Invalid(p.Child("apiVersion"), v, "must be a string"))
		case s == "":
			errs = append(errs, field.Invalid(p.Child("apiVersion"), s, "must not be empty"))
		case strings.Count(s, "/") > 1:
			errs = append(errs, field.Invalid(p.Child("apiVersion"), s, "unexpected GroupVersion string: "+s))
		}
	}
	if v, ok := x["kind"]; ok {
		switch s, isString := v.(string); {
		case !isString:
			errs = append(errs, field.Invalid(p.Child("kind"), v, "must be a string"))
		case s == "":
			errs = append(errs, field.Invalid(p.Child("kind"), s, "must not be empty"))
		default:
			if msgs := IsDNS1035Label(strings.ToLower(s)); len(msgs) > 0 {
				errs = append(errs, field.Invalid(p.Child("kind"), s, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
			}
		}
	}
	if v, ok := x["metadata"]; ok {
		errs = append(errs, embeddedMetadata(p.Child("metadata"), v)...)
	}
	return errs
}

// IsDNS1035Label is apimachinery's IsDNS1035Label: a lowercase letter,
// then letters, digits or '-', not ending in '-', at most 63 long.
func IsDNS1035Label(s string) []string {
	var msgs []string
	if len(s) > api.DNS1123LabelMaxLength {
		msgs = append(msgs, "must be no more than 63 characters")
	}
	ok := s != "" && s[0] >= 'a' && s[0] <= 'z' && s[len(s)-1] != '-'
	for i := 0; ok && i < len(s); i++ {
		c := s[i]
		ok = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-'
	}
	if !ok {
		msgs = append(msgs, "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')")
	}
	return msgs
}

// embeddedMetadata checks the ObjectMeta fields an embedded object
// usually carries: its name and generateName (path segments: not "." or
// "..", no "/" or "%"), namespace, labels and annotations.
func embeddedMetadata(p field.Path, v any) field.ErrorList {
	m, ok := v.(map[string]any)
	if !ok {
		return field.ErrorList{field.Invalid(p, v, "must be an object")}
	}
	var errs field.ErrorList
	for _, k := range []string{"name", "generateName"} {
		if s, ok := m[k].(string); ok && s != "" {
			for _, msg := range pathSegment(s, k == "generateName") {
				errs = append(errs, field.Invalid(p.Child(k), s, msg))
			}
		}
	}
	if ns, ok := m["namespace"].(string); ok && ns != "" {
		for _, msg := range api.IsDNS1123Label(ns) {
			errs = append(errs, field.Invalid(p.Child("namespace"), ns, msg))
		}
	}
	if labels, ok := m["labels"].(map[string]any); ok {
		for _, k := range sortedKeys(labels) {
			for _, msg := range api.IsQualifiedName(k) {
				errs = append(errs, field.Invalid(p.Child("labels"), k, msg))
			}
			if s, ok := labels[k].(string); ok {
				for _, msg := range api.IsValidLabelValue(s) {
					errs = append(errs, field.Invalid(p.Child("labels"), s, msg))
				}
			}
		}
	}
	if annotations, ok := m["annotations"].(map[string]any); ok {
		for _, k := range sortedKeys(annotations) {
			for _, msg := range api.IsQualifiedName(strings.ToLower(k)) {
				errs = append(errs, field.Invalid(p.Child("annotations"), k, msg))
			}
		}
	}
	return errs
}

func pathSegment(name string, prefix bool) []string {
	var msgs []string
	if !prefix && (name == "." || name == "..") {
		msgs = append(msgs, `may not be '.' or '..'`)
	}
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			msgs = append(msgs, "may not contain '"+bad+"'")
		}
	}
	return msgs
}
