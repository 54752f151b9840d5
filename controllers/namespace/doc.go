// Package namespace is the namespace controller: when a namespace is
// deleted, it deletes everything in it and then lets it go. The apiserver
// only marks a deleted namespace Terminating (and refuses new content in
// it, NamespaceLifecycle admission); the "kubernetes" entry of its
// spec.finalizers holds it until this controller removes it.
//
// Where it sits on the spine: a controller of the controller manager like
// any other. The namespace informer's handlers queue only namespaces with
// a deletionTimestamp, and only after a grace period (5 s), so that every
// apiserver has seen the deletion and the last creates have landed. A
// worker then (deleter.go, content.go):
//
//  1. reads the namespace live and makes sure its phase is Terminating;
//  2. asks discovery for every namespaced resource of each group's
//     preferred version that serves delete — custom resources included,
//     once the server has them — and empties each: one DELETE of the
//     collection (propagationPolicy Background), or a DELETE per object
//     where the collection verb is missing;
//  3. lists each resource again: pods still in their grace period, or
//     objects waiting for finalizers, mean "not yet" — the namespace comes
//     back after half the estimate (ResourcesRemainingError);
//  4. writes the NamespaceDeletion* conditions (conditions.go) — each True
//     with Kubernetes' reason and message while its problem lasts, False
//     ("ContentRemoved", ...) once it is gone;
//  5. when nothing is left, removes its token from spec.finalizers with
//     PUT namespaces/NAME/finalize; the apiserver removes the namespace
//     once no finalizer holds it.
//
// Kubernetes counterparts (v1.37.2): pkg/controller/namespace/
// namespace_controller.go (NewNamespaceController, enqueueNamespace,
// worker, syncNamespaceFromKey, nsControllerRateLimiter) and
// pkg/controller/namespace/deletion/namespaced_resources_deleter.go
// (Delete, deleteAllContent, deleteAllContentForGroupVersionResource,
// deleteCollection, listCollection, deleteEachItem,
// estimateGracefulTermination, finalizeNamespace) and
// status_condition_utils.go.
//
// What we simplify: the controller lists full objects and keeps their
// metadata (client.MetadataResource) where Kubernetes asks the server for
// PartialObjectMetadataList; discovery is asked on every pass, without
// client-go's cache; there is no metric of namespaces being deleted.
package namespace
