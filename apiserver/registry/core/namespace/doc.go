// Package namespace is the registry of namespaces: a new namespace is
// Active and carries the "kubernetes" finalizer; deleting it only marks it
// Terminating, and it goes once it is empty (Finalize).
//
// Where it sits on the spine: below the handlers like every registry. The
// emptying itself is not here: the apiserver's namespace finalizer loop
// (apiserver/namespace_finalizer.go, Kubernetes' namespace controller)
// learns of a Terminating namespace through OnTerminating, deletes its
// contents through the other registries, and calls Finalize.
//
// Kubernetes counterparts (v1.37.2): pkg/registry/core/namespace/strategy.go
// (namespaceStrategy.PrepareForCreate) and pkg/registry/core/namespace/
// storage/storage.go (REST.Delete, FinalizeREST.Update).
//
// What we simplify: the finalize subresource is not served over HTTP (only
// the in-process finalizer calls Finalize), and deletecollection on
// namespaces is allowed (Kubernetes' namespace REST does not offer it).
package namespace
