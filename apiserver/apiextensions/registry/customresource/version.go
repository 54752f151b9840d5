package customresource

import (
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/cel"
	"kubeloop/apiserver/apiextensions/schema"
	"kubeloop/apiserver/apiextensions/schema/defaulting"
	"kubeloop/apiserver/apiextensions/schema/pruning"
	"kubeloop/apiserver/apiextensions/schema/validate"
)

// Version is everything one served version of a CRD needs, built once
// when the CRD is (re)registered and read-only afterwards.
type Version struct {
	// Info is the kind at this version: group, version, names, scope,
	// selectable fields.
	Info *api.ResourceInfo
	// Structural is the version's schema (nil: none, everything pruned
	// but metadata); Validator and Rules check objects against it (Rules
	// is nil when the schema has no CEL rules).
	Structural *schema.Structural
	// Schema is the version's schema as written, for OpenAPI.
	Schema    *api.JSONSchemaProps
	Validator *validate.Validator
	Rules     *cel.Validator
	// Columns are the Table columns after Name.
	Columns []api.CustomResourceColumnDefinition
	// Status and Scale are the version's subresources (nil: off).
	Status *api.CustomResourceSubresourceStatus
	Scale  *api.CustomResourceSubresourceScale
	// Deprecation is the warning every request to a deprecated version
	// gets, "" for none.
	Deprecation string
	// embedded: the schema has embedded resources, whose metadata is
	// coerced to ObjectMeta on decode and on read.
	embedded bool
}

// NewVersion builds the served version name of crd. compiler compiles the
// CEL rules (one per server: building the CEL environment is costly).
func NewVersion(crd *api.CustomResourceDefinition, name string, compiler *cel.Compiler) (*Version, error) {
	var v *api.CustomResourceDefinitionVersion
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == name {
			v = &crd.Spec.Versions[i]
		}
	}
	if v == nil {
		return nil, fmt.Errorf("customresource: %s has no version %q", crd.Name, name)
	}
	names := crd.Status.AcceptedNames
	if names.Kind == "" {
		names = crd.Spec.Names
	}
	out := &Version{Columns: v.AdditionalPrinterColumns}
	if v.Subresources != nil {
		out.Status, out.Scale = v.Subresources.Status, v.Subresources.Scale
	}
	if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
		s, err := schema.NewStructural(v.Schema.OpenAPIV3Schema)
		if err != nil {
			return nil, fmt.Errorf("customresource: %s version %s: %w", crd.Name, name, err)
		}
		if out.Validator, err = validate.New(s); err != nil {
			return nil, fmt.Errorf("customresource: %s version %s: %w", crd.Name, name, err)
		}
		out.Structural, out.Schema = s, v.Schema.OpenAPIV3Schema
		out.Rules = compiler.NewValidator(s, true)
		out.embedded = pruning.HasEmbeddedResource(s)
	}
	if v.Deprecated {
		out.Deprecation = fmt.Sprintf("%s/%s %s is deprecated", crd.Spec.Group, v.Name, names.Kind)
		if v.DeprecationWarning != nil {
			out.Deprecation = *v.DeprecationWarning
		}
	}
	info := &api.ResourceInfo{
		Group: crd.Spec.Group, Version: v.Name, Kind: names.Kind, Resource: names.Plural,
		Singular: names.Singular, ShortNames: names.ShortNames, Categories: names.Categories,
		Namespaced: crd.Spec.Scope == api.NamespaceScoped,
		// Every custom resource counts generation; HasSpec drives nothing
		// else here (the strategy compares content itself).
		HasSpec: true, HasStatus: out.Status != nil,
		New:     func() api.Object { return &api.Unstructured{} },
		NewList: func() api.ListObject { return &api.UnstructuredList{} },
	}
	if out.Scale != nil {
		info.Subresources = []string{"scale"}
	}
	if st := out.Structural; st != nil {
		// Objects read from etcd fit the schema as it is now: what an
		// older schema let in is pruned, what it did not default is.
		info.Decoded = func(obj api.Object) {
			if u, ok := obj.(*api.Unstructured); ok && u.Content != nil {
				pruning.Prune(u.Content, st, true)
				if out.embedded {
					// A stored value that does not fit is kept as it is.
					_, _ = pruning.CoerceEmbeddedMetadata(u.Content, st)
				}
				defaulting.Default(u.Content, st)
			}
		}
	}
	if err := setSelectableFields(info, v.SelectableFields); err != nil {
		return nil, fmt.Errorf("customresource: %s version %s: %w", crd.Name, name, err)
	}
	out.Info = info
	return out, nil
}

// KindInfo is the version's group, version and kind.
func (v *Version) KindInfo() api.KindInfo {
	return api.KindInfo{Group: v.Info.Group, Version: v.Info.Version, Kind: v.Info.Kind}
}
