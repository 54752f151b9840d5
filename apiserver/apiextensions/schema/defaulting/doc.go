// Package defaulting writes a schema's defaults into a custom resource and
// checks, for CRD validation, that every default is itself valid.
//
// Where it sits: the custom-resource decoder of the apiserver runs, after
// pruning, PruneNonNullableNullsWithoutDefaults and then Default, on
// request bodies (create, update, patch) and on objects read from etcd, so
// a default added to a CRD shows up on old objects when they are read.
// CRD validation runs ValidateDefaults after the structural rules pass.
//
// Kubernetes counterpart (v1.37.2): apiextensions-apiserver
// pkg/apiserver/schema/defaulting: algorithm.go (Default),
// prunenulls.go (PruneNonNullableNullsWithoutDefaults) and validation.go
// (ValidateDefaults).
//
// What we simplify: ValidateDefaults does not build the surrounding
// object of a default inside metadata (CRD validation forbids defaults in
// the root's metadata, and an embedded object's metadata default is
// checked as a value). Like Kubernetes, it runs each default through the
// CEL rules of its node with the runtime cost budget, but without the
// second run Kubernetes makes without an old value when ratcheting is on.
package defaulting
