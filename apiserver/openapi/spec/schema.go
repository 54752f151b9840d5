package spec

// Schema is one schema object in the subset Kubernetes' built-in
// definitions use. One value renders both as Swagger 2.0 (V2) and as
// OpenAPI 3.0 (V3); the two differ only in how a reference is written and
// in the two scalar unions, Quantity and IntOrString.
type Schema struct {
	Description string
	Type        string // object, array, string, integer, number, boolean; "" for a reference or a union
	Format      string // int32, int64, double, byte, date-time, int-or-string
	// OneOfTypes is the v3 form of a scalar union (Quantity: string or
	// number); v2 has no oneOf and says Type instead.
	OneOfTypes []string
	// Ref names another definition ("io.k8s.api.core.v1.PodSpec"); the
	// renderers turn it into a JSON pointer.
	Ref                  string
	Items                *Schema
	AdditionalProperties *Schema
	Properties           map[string]*Schema
	Required             []string // in field declaration order, as Kubernetes lists them
	// Default is what Kubernetes' generator writes for a value the JSON
	// decoder fills with its zero: {} for a struct, "" for a string element.
	Default any
	// Extensions are the x-kubernetes-* vendor extensions.
	Extensions map[string]any
}

// The vendor extensions this package writes.
const (
	ExtGroupVersionKind = "x-kubernetes-group-version-kind"
	ExtPatchStrategy    = "x-kubernetes-patch-strategy"
	ExtPatchMergeKey    = "x-kubernetes-patch-merge-key"
)

// GroupVersionKind is one entry of x-kubernetes-group-version-kind. Its
// fields are in the order Kubernetes writes the keys (sorted).
type GroupVersionKind struct {
	Group   string `json:"group"`
	Kind    string `json:"kind"`
	Version string `json:"version"`
}

// GVKs returns the x-kubernetes-group-version-kind entries of s.
func (s *Schema) GVKs() []GroupVersionKind {
	gvks, _ := s.Extensions[ExtGroupVersionKind].([]GroupVersionKind)
	return gvks
}

// V2 renders s as a Swagger 2.0 schema object, ready for encoding/json
// (which writes the keys sorted, as kube-apiserver does).
func (s *Schema) V2() map[string]any { return s.render(v2) }

// V3 renders s as an OpenAPI 3.0 schema object.
func (s *Schema) V3() map[string]any { return s.render(v3) }

type version int

const (
	v2 version = iota
	v3
)

func (s *Schema) render(v version) map[string]any {
	out := map[string]any{}
	set := func(k string, val any, ok bool) {
		if ok {
			out[k] = val
		}
	}
	set("description", s.Description, s.Description != "")
	set("format", s.Format, s.Format != "")
	set("default", s.Default, s.Default != nil)
	set("required", s.Required, len(s.Required) > 0)
	switch {
	case len(s.OneOfTypes) > 0 && v == v3:
		var alts []any
		for _, t := range s.OneOfTypes {
			alts = append(alts, map[string]any{"type": t})
		}
		out["oneOf"] = alts
	case s.Type != "":
		out["type"] = s.Type
	}
	if s.Items != nil {
		out["items"] = s.Items.render(v)
	}
	if s.AdditionalProperties != nil {
		out["additionalProperties"] = s.AdditionalProperties.render(v)
	}
	if len(s.Properties) > 0 {
		props := map[string]any{}
		for name, p := range s.Properties {
			props[name] = p.render(v)
		}
		out["properties"] = props
	}
	for k, val := range s.Extensions {
		out[k] = val
	}
	if s.Ref != "" {
		ref := RefV2(s.Ref)
		if v == v3 {
			ref = RefV3(s.Ref)
		}
		// OpenAPI 3.0 ignores the siblings of a $ref, so a reference that
		// carries a description or a default is wrapped in allOf, as
		// kube-openapi's builder3 (util.WrapRefs) does. Swagger 2.0 keeps
		// them side by side.
		if v == v3 && len(out) > 0 {
			out["allOf"] = []any{map[string]any{"$ref": ref}}
		} else {
			out["$ref"] = ref
		}
	}
	return out
}

// RefV2 is the JSON pointer to a definition in a Swagger 2.0 document.
func RefV2(name string) string { return "#/definitions/" + name }

// RefV3 is the JSON pointer to a schema in an OpenAPI 3.0 document.
func RefV3(name string) string { return "#/components/schemas/" + name }

// refs calls f with the name of every definition s references.
func (s *Schema) refs(f func(string)) {
	if s == nil {
		return
	}
	if s.Ref != "" {
		f(s.Ref)
	}
	s.Items.refs(f)
	s.AdditionalProperties.refs(f)
	for _, p := range s.Properties {
		p.refs(f)
	}
}
