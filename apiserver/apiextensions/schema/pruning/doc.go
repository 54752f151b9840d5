// Package pruning drops the fields of a custom resource that its schema
// does not specify, so that what is stored is exactly what the schema
// describes, and reports their paths so that fieldValidation=Strict can
// refuse the request and Warn can warn about each one.
//
// Where it sits: the custom-resource decoder of the apiserver prunes every
// object it reads from a request, and every object it reads from etcd
// (whose schema may have changed), before defaulting and validation. CRD
// validation prunes each default to check that it is already pruned.
//
// Kubernetes counterpart (v1.37.2): apiextensions-apiserver
// pkg/apiserver/schema/pruning/algorithm.go (PruneWithOptions, prune,
// skipPrune) and pkg/apiserver/schema/options.go (UnknownFieldPathOptions:
// the path format).
//
// What we simplify: the paths are always collected (Kubernetes collects
// them only when asked); the metadata of embedded resources is not
// coerced to ObjectMeta's fields (Kubernetes' objectmeta.Coerce drops its
// unknown fields).
package pruning
