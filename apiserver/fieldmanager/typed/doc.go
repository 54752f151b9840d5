// Package typed knows the shape of an object well enough to name its
// fields: a schema (which lists are atomic, sets or maps keyed by some of
// their elements' fields; which structs and maps are atomic) and the two
// walks server-side apply needs over JSON values by that schema, the set of
// fields a value sets (ToFieldSet) and what changed between two values
// (Compare).
//
// The schema of a built-in kind is read from its Go type's struct tags, the
// one table the OpenAPI documents and strategic merge patch read too:
// listType:"atomic"|"set"|"map" with listMapKey:"a,b", mapType:"atomic",
// structType:"atomic" (on a list field these describe its elements), and
// default:"..." on a key field that may be omitted. A list without a
// listType follows Kubernetes' OpenAPI-to-SMD conversion: patchStrategy
// merge with a patchMergeKey makes a map list keyed by that key, merge
// without a key a set, anything else is atomic.
//
// Kubernetes: sigs.k8s.io/structured-merge-diff/v6/typed (tofieldset.go
// toFieldSetWalker, compare.go compareWalker, helpers.go
// listItemToPathElement) and k8s.io/kube-openapi/pkg/schemaconv/smd.go
// (getListElementRelationship) for how OpenAPI becomes a schema.
//
// What we simplify: no unions, no separate validation pass (type errors are
// found during the walks), no reconciliation of managed fields with schema
// changes, one schema per Go type instead of named OpenAPI definitions.
package typed
