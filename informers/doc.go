// Package informers hands out shared informers: one per resource per
// process, so every controller of a controller manager shares one watch and
// one cache. It is the layer client-go generates above tools/cache, kept
// apart from package informer (the informer itself) as client-go keeps it.
//
// Kubernetes counterpart: client-go v0.37.2 informers/factory.go —
// sharedInformerFactory, InformerFor, Start, WaitForCacheSync, Shutdown —
// and the generated typed informers (informers/core/v1/pod.go:
// podInformer.Informer and Lister), which For[T] and TypedInformer[T] stand
// for with generics.
//
// What we simplify: informers are keyed by resource only (no per-namespace
// or tweak-list variants: make a second factory for a narrowed view, as the
// kubelet does); one generic TypedInformer instead of generated code; every
// informer of a factory also has the owner index (OwnerUIDIndex).
package informers
