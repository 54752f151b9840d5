// Package generic is the registry's kind-independent half: Store, the REST
// storage of one resource made from its strategies over its storage (etcd
// behind the watch cache), DefaultStrategy for kinds with nothing of their
// own, StatusREST for the status subresource, and ScaleREST for the scale
// subresource of every kind that has one (a kind gives only its Scale
// view, a Scaler: ReplicaSets, Deployments and custom resources share the
// rest, which Kubernetes writes out once per kind).
//
// Where it sits on the spine: below the endpoint handlers, above
// store/watchcache. Store.Create, Update and Delete are where a write
// becomes an etcd transaction: server-owned metadata is set, the strategy
// prepares and validates the object, validating admission (handed down by
// the handler) has the last word, and only then does storage write.
// Update is the read-modify-write every PUT, PATCH, scale and status write
// goes through; Delete handles preconditions, grace periods, finalizers and
// the garbage collector's propagation finalizers.
//
// Kubernetes counterparts (v1.37.2): staging/src/k8s.io/apiserver/pkg/
// registry/generic/registry/store.go (Store.Create, Store.Update,
// Store.Delete, Store.DeleteCollection, shouldDeleteDuringUpdate,
// deletionFinalizersForGarbageCollection), and the per-kind strategies of
// pkg/registry/<group>/<kind>/strategy.go, whose common shape
// DefaultStrategy reads from the ResourceInfo.
//
// A dry run goes through all of it; only DryRunnableStorage (dryrun.go)
// stops short of writing, and answers what it would have written.
//
// What we simplify: no decorators or hooks
// (AfterCreate, BeginUpdate), no TTL, no create-on-update; every deletion
// the store completes by itself is logged here, the writes a client asks
// for are logged by the handlers.
package generic
