// Package reflector keeps a local store in step with the apiserver: it LISTs
// a resource once, then WATCHes from the list's resourceVersion, and pushes
// every change into a store (in kubeloop, a DeltaFIFO). When the watch breaks
// it resumes from the last resourceVersion it saw; when that version is too
// old (410), it LISTs again.
//
// Where it sits on the spine: spine arrow 3, seen from the client
// (docs/architecture.md), and reading-path step 4 (docs/reading-path.md):
// apiserver → watch stream → reflector → DeltaFIFO → informer (indexer +
// handlers).
//
// Kubernetes counterpart: staging/src/k8s.io/client-go/tools/cache/reflector.go
// at client-go v0.37.2 — Reflector, ListAndWatch, list, watchWithResync,
// watch, handleWatch, relistResourceVersion, watchList, and the backoff
// manager built in NewReflectorWithOptions. The rules kept from it are in the
// comments of each function: the first LIST at "0" paged by 500, a 410 there
// re-listing at once with ""; WATCH with bookmarks and a random timeout in
// [300, 600) s; a normal end re-watches without a LIST, a 410 re-lists, a
// watch that ends in under a second with no events backs off; resyncs from
// the moment the state is loaded; WatchList (sendInitialEvents) with a
// fallback to LIST when the server rejects it.
//
// What we simplify: no pager type (a loop follows continue tokens), no
// metrics, no "expected type" checks beyond what the ListerWatcher decodes,
// and the WatchList mode keeps the initial objects in a slice rather than a
// temporary store.
package reflector
