// Package reflector keeps a local store in step with the apiserver: it loads
// a resource's state, WATCHes from its resourceVersion and pushes every change
// into a store (a DeltaFIFO). The state comes from a paged LIST or, with
// UseWatchList (every informer sets it), from one WATCH with sendInitialEvents
// that ends at a k8s.io/initial-events-end bookmark and stays open. A watch
// that ends resumes from the last version seen; a 410 loads the state again.
// Spine arrow 3, client side; reading-path step 4 (docs/reading-path.md).
//
// Kubernetes counterpart: client-go v0.37.2 tools/cache/reflector.go —
// NewReflectorWithOptions (watch-list on while the WatchListClient gate is,
// by default since 1.35: features/known_features.go), ListAndWatchWithContext
// (a watchList error of any kind: list this once), list, watchWithResync,
// watch, handleWatch, relistResourceVersion; their rules are kept, each in
// the comment of the function that applies it. Simplified: no pager, metrics
// or type checks; watchList keeps the objects in a slice, not a store, and
// on 429 or 410 lists instead of retrying the stream; Run relists at once
// after a 410, where RunWithContext waits its back-off after every round.
package reflector
