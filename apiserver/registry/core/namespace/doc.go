// Package namespace is the registry of namespaces: a new namespace is
// Active and carries the "kubernetes" finalizer in spec.finalizers;
// deleting it only marks it Terminating, and it goes once its
// spec.finalizers and metadata.finalizers are all gone.
//
// Where it sits on the spine: below the handlers like every registry. The
// emptying itself is not here: the namespace controller of the controller
// manager (controllers/namespace) sees the Terminating namespace through
// its informer, deletes its contents through the API, and then removes the
// "kubernetes" finalizer with PUT namespaces/NAME/finalize (FinalizeREST),
// the one write that may change spec.finalizers; the write that leaves a
// terminating namespace held by nothing removes it. OnTerminating tells
// the apiserver which namespaces to read live for a while in admission.
//
// Kubernetes counterparts (v1.37.2): pkg/registry/core/namespace/strategy.go
// (namespaceStrategy.PrepareForCreate, PrepareForUpdate;
// namespaceFinalizeStrategy) and pkg/registry/core/namespace/storage/
// storage.go (REST.Delete, FinalizeREST.Update,
// ShouldDeleteNamespaceDuringUpdate).
//
// What we simplify: deletecollection on namespaces is allowed (Kubernetes'
// namespace REST does not offer it); a DELETE with propagationPolicy
// Orphan or Foreground does not add the garbage collector's finalizer to
// the namespace (Kubernetes does, for namespaces too).
package namespace
