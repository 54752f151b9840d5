package schema

import (
	"errors"
	"fmt"

	"kubeloop/api"
)

// Structural is a CRD schema in structural form: every node says what
// its value is (type, properties, items, additionalProperties) and its
// value validations stand beside it. The logical junctors (allOf, anyOf,
// oneOf, not) only add validations to the value the node already
// describes; they may not introduce new fields, types or defaults.
//
// Pruning and defaulting walk Properties, Items and AdditionalProperties
// alone; validation also reads ValueValidation.
type Structural struct {
	Items                *Structural
	Properties           map[string]Structural
	AdditionalProperties *StructuralOrBool

	Generic
	Extensions
	// XValidations are the node's CEL rules.
	XValidations []api.ValidationRule

	ValueValidation *ValueValidation

	// props points at the schemas Properties was filled from, for
	// Property (property.go); propsOf is that map, so that a copy whose
	// Properties was replaced does not use them.
	props   map[string]*Structural
	propsOf map[string]Structural
}

// StructuralOrBool is additionalProperties: a schema (Bool true) or a
// bare true/false.
type StructuralOrBool struct {
	Structural *Structural
	Bool       bool
}

// Generic holds what describes a node rather than restricts it.
type Generic struct {
	Description string
	// Type is object, array, string, integer, number, boolean, or "" for
	// a node that is int-or-string or preserves unknown fields.
	Type  string
	Title string
	// Default is the decoded default value, nil for none.
	Default  any
	Nullable bool
}

// Extensions are the x-kubernetes-* keywords that change how a value is
// read.
type Extensions struct {
	XPreserveUnknownFields bool
	XEmbeddedResource      bool
	XIntOrString           bool
	XListMapKeys           []string
	XListType              *string
	XMapType               *string
}

// ValueValidation holds the restrictions on a value, including the
// junctors, whose branches are NestedValueValidations.
type ValueValidation struct {
	Format           string
	Maximum          *float64
	ExclusiveMaximum bool
	Minimum          *float64
	ExclusiveMinimum bool
	MaxLength        *int64
	MinLength        *int64
	Pattern          string
	MaxItems         *int64
	MinItems         *int64
	UniqueItems      bool
	MultipleOf       *float64
	// Enum holds the decoded allowed values.
	Enum          []any
	MaxProperties *int64
	MinProperties *int64
	Required      []string
	AllOf         []NestedValueValidation
	OneOf         []NestedValueValidation
	AnyOf         []NestedValueValidation
	Not           *NestedValueValidation
}

// NestedValueValidation is a branch of a junctor: value validations over
// the same shape. What a structural schema forbids in a branch (a type, a
// default, an extension) is kept in the Forbidden fields so that the rules
// can name it.
type NestedValueValidation struct {
	ValueValidation
	XValidations         []api.ValidationRule
	Items                *NestedValueValidation
	Properties           map[string]NestedValueValidation
	AdditionalProperties *NestedValueValidation

	ForbiddenGenerics   Generic
	ForbiddenExtensions Extensions
}

// ErrUnsupported names a keyword a CRD schema may not use at all. CRD
// validation reports each one as a field error before building the
// structural schema, so this error means validation was skipped.
var ErrUnsupported = errors.New("not supported")

// NewStructural converts a CRD schema. It fails on keywords a CRD may not
// use ($ref, definitions, ...) and on a list of item schemas; both are
// field errors of CRD validation first.
func NewStructural(s *api.JSONSchemaProps) (*Structural, error) {
	if s == nil {
		return nil, nil
	}
	if err := unsupportedKeyword(s); err != nil {
		return nil, err
	}
	g, err := newGeneric(s)
	if err != nil {
		return nil, err
	}
	x, err := newExtensions(s)
	if err != nil {
		return nil, err
	}
	vv, err := newValueValidation(s)
	if err != nil {
		return nil, err
	}
	out := &Structural{Generic: g, Extensions: x, XValidations: s.XValidations, ValueValidation: vv}
	if s.Items != nil {
		if len(s.Items.JSONSchemas) > 0 {
			return nil, fmt.Errorf("OpenAPIV3Schema 'items' must be a schema, but is an array")
		}
		if out.Items, err = NewStructural(s.Items.Schema); err != nil {
			return nil, err
		}
	}
	if len(s.Properties) > 0 {
		out.Properties = make(map[string]Structural, len(s.Properties))
		out.props, out.propsOf = make(map[string]*Structural, len(s.Properties)), out.Properties
		for k := range s.Properties {
			p := s.Properties[k]
			ps, err := NewStructural(&p)
			if err != nil {
				return nil, err
			}
			out.Properties[k] = *ps
			out.props[k] = ps
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		if ap.Schema != nil {
			as, err := NewStructural(ap.Schema)
			if err != nil {
				return nil, err
			}
			out.AdditionalProperties = &StructuralOrBool{Structural: as, Bool: true}
		} else {
			out.AdditionalProperties = &StructuralOrBool{Bool: ap.Allows}
		}
	}
	return out, nil
}

func unsupportedKeyword(s *api.JSONSchemaProps) error {
	switch {
	case s.ID != "":
		return fmt.Errorf("OpenAPIV3Schema 'id' is %w", ErrUnsupported)
	case s.Schema != "":
		return fmt.Errorf("OpenAPIV3Schema 'schema' is %w", ErrUnsupported)
	case s.Ref != nil:
		return fmt.Errorf("OpenAPIV3Schema '$ref' is %w", ErrUnsupported)
	case s.PatternProperties != nil:
		return fmt.Errorf("OpenAPIV3Schema 'patternProperties' is %w", ErrUnsupported)
	case s.Dependencies != nil:
		return fmt.Errorf("OpenAPIV3Schema 'dependencies' is %w", ErrUnsupported)
	case s.AdditionalItems != nil:
		return fmt.Errorf("OpenAPIV3Schema 'additionalItems' is %w", ErrUnsupported)
	case s.Definitions != nil:
		return fmt.Errorf("OpenAPIV3Schema 'definitions' is %w", ErrUnsupported)
	}
	return nil
}

func newGeneric(s *api.JSONSchemaProps) (Generic, error) {
	g := Generic{Description: s.Description, Type: s.Type, Title: s.Title, Nullable: s.Nullable}
	if s.Default != nil {
		v, err := DecodeJSON(s.Default.Raw)
		if err != nil {
			return g, fmt.Errorf("default: %w", err)
		}
		g.Default = v
	}
	return g, nil
}

func newExtensions(s *api.JSONSchemaProps) (Extensions, error) {
	x := Extensions{
		XEmbeddedResource: s.XEmbeddedResource,
		XIntOrString:      s.XIntOrString,
		XListMapKeys:      s.XListMapKeys,
		XListType:         s.XListType,
		XMapType:          s.XMapType,
	}
	if p := s.XPreserveUnknownFields; p != nil {
		if !*p {
			return x, fmt.Errorf("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined")
		}
		x.XPreserveUnknownFields = true
	}
	return x, nil
}

func newValueValidation(s *api.JSONSchemaProps) (*ValueValidation, error) {
	v := &ValueValidation{
		Format: s.Format, Maximum: s.Maximum, ExclusiveMaximum: s.ExclusiveMaximum,
		Minimum: s.Minimum, ExclusiveMinimum: s.ExclusiveMinimum,
		MaxLength: s.MaxLength, MinLength: s.MinLength, Pattern: s.Pattern,
		MaxItems: s.MaxItems, MinItems: s.MinItems, UniqueItems: s.UniqueItems,
		MultipleOf: s.MultipleOf, MaxProperties: s.MaxProperties, MinProperties: s.MinProperties,
		Required: s.Required,
	}
	for i, e := range s.Enum {
		ev, err := DecodeJSON(e.Raw)
		if err != nil {
			return nil, fmt.Errorf("enum[%d]: %w", i, err)
		}
		v.Enum = append(v.Enum, ev)
	}
	var err error
	if v.AllOf, err = newNestedList(s.AllOf); err != nil {
		return nil, err
	}
	if v.AnyOf, err = newNestedList(s.AnyOf); err != nil {
		return nil, err
	}
	if v.OneOf, err = newNestedList(s.OneOf); err != nil {
		return nil, err
	}
	if s.Not != nil {
		if v.Not, err = newNested(s.Not); err != nil {
			return nil, err
		}
	}
	return v, nil
}

func newNestedList(in []api.JSONSchemaProps) ([]NestedValueValidation, error) {
	var out []NestedValueValidation
	for i := range in {
		n, err := newNested(&in[i])
		if err != nil {
			return nil, err
		}
		out = append(out, *n)
	}
	return out, nil
}

func newNested(s *api.JSONSchemaProps) (*NestedValueValidation, error) {
	if err := unsupportedKeyword(s); err != nil {
		return nil, err
	}
	vv, err := newValueValidation(s)
	if err != nil {
		return nil, err
	}
	g, err := newGeneric(s)
	if err != nil {
		return nil, err
	}
	x, err := newExtensions(s)
	if err != nil {
		return nil, err
	}
	n := &NestedValueValidation{ValueValidation: *vv, XValidations: s.XValidations, ForbiddenGenerics: g, ForbiddenExtensions: x}
	if s.Items != nil {
		if len(s.Items.JSONSchemas) > 0 {
			return nil, fmt.Errorf("OpenAPIV3Schema 'items' must be a schema, but is an array")
		}
		if s.Items.Schema != nil {
			if n.Items, err = newNested(s.Items.Schema); err != nil {
				return nil, err
			}
		}
	}
	if s.Properties != nil {
		n.Properties = make(map[string]NestedValueValidation, len(s.Properties))
		for k := range s.Properties {
			p := s.Properties[k]
			pn, err := newNested(&p)
			if err != nil {
				return nil, err
			}
			n.Properties[k] = *pn
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		switch {
		case ap.Schema != nil:
			if n.AdditionalProperties, err = newNested(ap.Schema); err != nil {
				return nil, err
			}
		case ap.Allows:
			n.AdditionalProperties = &NestedValueValidation{}
		}
	}
	return n, nil
}

// Any reports whether is holds for s or for any schema below it (items,
// properties, additionalProperties).
func (s *Structural) Any(is func(*Structural) bool) bool {
	return s != nil && (is(s) || s.AnyBelow(is))
}

// AnyBelow is Any for the schemas below s only.
func (s *Structural) AnyBelow(is func(*Structural) bool) bool {
	if s == nil {
		return false
	}
	if s.Items.Any(is) {
		return true
	}
	for k := range s.Properties {
		if p, _ := s.Property(k); p.Any(is) {
			return true
		}
	}
	return s.AdditionalProperties != nil && s.AdditionalProperties.Structural.Any(is)
}
