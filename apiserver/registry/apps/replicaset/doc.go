// Package replicaset is the registry of ReplicaSets: their strategy and the
// REST storage of replicasets, replicasets/status and replicasets/scale.
//
// Where it sits: spine arrow 1 of "scale to 5" lands here (reading-path
// step 2, docs/reading-path.md). `kubectl
// scale` patches replicasets/NAME/scale; generic.ScaleREST, with this
// package's Scale view of a ReplicaSet (storage.go scaler), turns the
// Scale into a change of spec.replicas and writes it through the
// ReplicaSet's generic Store, whose strategy bumps metadata.generation, so
// the ReplicaSet controller sees a new spec.
//
// Kubernetes counterparts (v1.37.2): pkg/registry/apps/replicaset/strategy.go
// (rsStrategy, rsStatusStrategy) and pkg/registry/apps/replicaset/storage/
// storage.go (NewStorage, ScaleREST.Get, ScaleREST.Update,
// scaleUpdatedObjectInfo.UpdatedObject, scaleFromReplicaSet).
//
// What we simplify: one API version (apps/v1), so there is no
// extensions/v1beta1 Scale to convert to; the Scale's selector is the
// ReplicaSet's selector as a string.
package replicaset
