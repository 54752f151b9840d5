// Package apiextensions is the root of kubeloop's CustomResourceDefinition
// machinery: a resource type defined as data. Its sub-packages are the
// pieces the apiserver composes into a custom-resource strategy; this
// package itself holds only this map and the benchmark of the whole
// per-object pipeline.
//
//	field                 field paths and errors worded as Kubernetes', and the 422 they become
//	validation            ValidateCustomResourceDefinition and its update rules
//	schema                the structural schema of a CRD version and its rules
//	schema/pruning        dropping unknown fields (and the paths fieldValidation reports)
//	schema/defaulting     filling in defaults; checking a CRD's defaults
//	schema/validate       a custom resource against its schema, every violation
//	cel                   x-kubernetes-validations: CEL rules over self and oldSelf, with their cost limits
//	jsonpath              the simple JSONPaths of printer columns, selectable fields and scale paths
//	registry/customresourcedefinition  the CRD registry (strategy, status, delete with the cleanup finalizer)
//	registry/customresource            one served version's strategy, storage, serializers, Table, scale
//	crdserving            the run-time table of served custom resources and the loop filling it
//
// A custom resource on create goes: decode to map[string]any
// (schema.DecodeJSON) → pruning.Prune → defaulting.PruneNonNullableNullsWithoutDefaults
// → defaulting.Default → validate.Validator.ValidateCustomResource →
// cel.Validator.Validate (with the old object on update) → store.
//
// Kubernetes counterpart (v1.37.2): staging/src/k8s.io/apiextensions-apiserver,
// chiefly pkg/apis/apiextensions/validation, pkg/apiserver/schema and
// pkg/apiserver/validation; the per-object pipeline is
// pkg/apiserver/customresource_handler.go (schemaCoercingDecoder,
// unstructuredDefaulter) and pkg/registry/customresource/strategy.go.
//
// How a CRD becomes served: the CRD registry stores it; the crdserving
// Controller (naming, establishing and finalizing in one loop) sees it in
// its watch, accepts its names, builds every served version's endpoints
// (customresource registry over one storage: etcd behind a watch cache)
// and swaps them into the crdserving.Served table, then sets Established.
// The apiserver's API handler delegates every request the built-in
// registry does not have to that table; discovery lists it after the
// built-in kinds.
package apiextensions
