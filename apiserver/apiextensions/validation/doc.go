// Package validation is the validation of a CustomResourceDefinition
// itself, on create and update, with Kubernetes' field paths and messages,
// so that an invalid CRD is a 422 that names every problem
// (field.ErrorList.ToStatusError).
//
// What it checks: metadata (cluster-scoped, name "<plural>.<group>"),
// the group (a DNS subdomain with a dot), scope, names (DNS-1035 labels,
// kind ≠ listKind), versions (at least one schema each, unique DNS-1035
// names, exactly one storage version, deprecation warnings), each
// version's schema (the keyword rules of every node — no $ref,
// definitions, patternProperties, dependencies, additionalItems, id,
// uniqueItems or null type; properties exclusive with additionalProperties;
// x-kubernetes-list-type/-list-map-keys/-map-type consistency;
// x-kubernetes-validations well-formed, compiled, within their cost
// limits, oldSelf only where an old value exists; no defaults in the root's
// metadata, kind or apiVersion — then the structural rules of package
// schema, then every default valid and pruned), the root keywords allowed
// with the status subresource, the scale subresource's paths, printer
// columns, selectable fields, conversion, status.storedVersions, the
// approval annotation of protected groups, preserveUnknownFields; on
// update also the immutability of group and names.plural, and of scope
// and names.kind once Established. SetDefaults is the defaulting the
// apiserver applies before.
//
// Kubernetes counterpart (v1.37.2): apiextensions-apiserver
// pkg/apis/apiextensions/validation/validation.go
// (ValidateCustomResourceDefinition, ValidateCustomResourceDefinitionUpdate,
// validateCustomResourceDefinitionSpec, validateCustomResourceDefinitionVersion,
// validateCustomResourceDefinitionValidation,
// ValidateCustomResourceDefinitionOpenAPISchema, specStandardValidatorV3.validate,
// validateMapListKeysMapSet, ValidateCustomResourceDefinitionNames,
// ValidateCustomResourceColumnDefinition,
// ValidateCustomResourceDefinitionSubresources,
// ValidateCustomResourceSelectableFields,
// ValidateCustomResourceDefinitionStoredVersions, validateAPIApproval,
// validatePreserveUnknownFields) and apiextensions/v1/defaults.go.
//
// What we simplify: the rules run on the v1 types (Kubernetes converts to
// its internal version, whose field names show in some paths, and
// kubeloop keeps those paths: spec.conversion.webhookClientConfig,
// additionalPrinterColumns[i].JSONPath); the bad value of a whole versions
// list prints as v1 JSON; x-kubernetes-validations are compiled and their
// cost checked (package cel) only once the rest of the schema is valid,
// where Kubernetes does it node by node; the options Kubernetes relaxes for CRDs
// that were already stored invalid (ratcheting of old schemas) are not
// modelled: every rule always applies; webhook URLs, services and CA
// bundles are not checked beyond presence; selectable-field paths take
// only the dotted form; ObjectMeta checks are the name and namespace rules.
package validation
