// Package listers reads typed objects from an informer's cache: all of a
// resource, one namespace, one object by name, filtered by a label
// selector; how controllers read state without asking the apiserver (spine
// arrow 4). What it returns is the cache's own object: DeepCopy it first.
//
// Kubernetes counterpart: client-go v0.37.2 listers/generic_helpers.go
// (ResourceIndexer[T], New, List, Get, Namespace) and the generated typed
// listers it backs (listers/core/v1/pod.go: PodLister, PodNamespaceLister),
// with tools/cache/listers.go (ListAll, ListAllByNamespace).
//
// What we simplify: one generic Lister[T] instead of generated code, and the
// NotFound error names the resource from api.Builtin().
package listers
