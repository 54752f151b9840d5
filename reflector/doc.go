// Package reflector keeps a local store in step with the apiserver: it LISTs
// a resource, WATCHes from the list's resourceVersion and pushes every change
// into a store (a DeltaFIFO). A watch that ends resumes from the last version
// seen; a version too old (410) means LIST again. Spine arrow 3, client side;
// reading-path step 4 (docs/reading-path.md).
//
// Kubernetes counterpart: client-go v0.37.2 tools/cache/reflector.go —
// ListAndWatch, list, watchWithResync, watch, handleWatch,
// relistResourceVersion, watchList, and the backoff manager made in
// NewReflectorWithOptions; its rules (LIST at "0" paged by 500, watch
// timeouts, when to re-watch, re-list or back off) are kept, each in the
// comment of the function that applies it.
//
// Simplified: no pager type, no metrics, no expected-type checks; WatchList
// keeps the initial objects in a slice, not a temporary store.
package reflector
