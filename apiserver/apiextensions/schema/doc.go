// Package schema is the structural schema of a CustomResourceDefinition:
// the OpenAPI v3 schema of a version, converted into a tree in which every
// node says what its value is (type, properties, items,
// additionalProperties, x-kubernetes-* extensions) and the value
// validations (enum, pattern, bounds, the allOf/anyOf/oneOf/not junctors)
// hang beside it.
//
// Where it sits: CRD validation (apiserver/apiextensions/validation) builds
// one with NewStructural and enforces the structural rules with
// ValidateStructural; the packages that work on custom resources —
// validate (values against the schema), pruning (drop unknown fields),
// defaulting (fill in defaults) and cel (x-kubernetes-validations) — all
// walk a *Structural. A custom resource is unstructured JSON in the form
// DecodeJSON produces (value.go): map[string]any, []any, string, bool,
// int64, float64, nil.
//
// Kubernetes counterpart (v1.37.2):
// staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema:
// structural.go (Structural, Generic, Extensions, ValueValidation,
// NestedValueValidation), convert.go (NewStructural, validateUnsupportedFields),
// validation.go (ValidateStructural, validateStructuralInvariants,
// validateStructuralMetadataInvariants, validateNestedValueValidation) and
// complete.go (validateStructuralCompleteness, which, as here, only looks
// at the root's junctors).
//
// What we simplify: the schema is built from the v1 types (Kubernetes
// converts to its internal version first); ValidateStructural has no
// options (Kubernetes' CRD validation uses the defaults, which forbid
// additionalProperties and x-kubernetes-validations inside junctors);
// there is no skeleton/unfold/visitor machinery, no conversion to
// kube-openapi's spec.Schema, and example and externalDocs are not kept
// (nothing reads them after CRD validation).
package schema
