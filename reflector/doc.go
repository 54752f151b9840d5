// Package reflector keeps a local store in step with the apiserver: it LISTs
// a resource once, then WATCHes from the list's resourceVersion, and pushes
// every change into a store (in kubeloop, a DeltaFIFO). When the watch breaks
// it resumes from the last resourceVersion it saw; when that version is too
// old (410), it LISTs again.
//
// Where it sits on the spine: apiserver → watch stream → reflector →
// DeltaFIFO → informer (indexer + handlers).
//
// Kubernetes counterpart: staging/src/k8s.io/client-go/tools/cache/reflector.go
// at client-go v0.37.2 — Reflector, ListAndWatch, list, watch, watchHandler,
// relistResourceVersion, and the backoff manager built in NewReflectorWithOptions.
//
// Behaviour kept from client-go:
//   - the first LIST asks for resourceVersion "0" (served from the watch
//     cache), paged by 500; later LISTs ask for the last synced version;
//     a 410 on LIST marks that version unavailable and re-lists at once with
//     "" (a consistent read);
//   - WATCH from the list's version with allowWatchBookmarks and a random
//     timeoutSeconds in [300, 600); every event's version becomes the last
//     synced version; a BOOKMARK only moves the version;
//   - a watch that ends normally is re-opened from the last version without a
//     LIST; an ERROR 410 leads to a LIST; a watch that ends in under a second
//     with no events is treated as an error, so the reflector backs off;
//   - back-off 800 ms, doubling with jitter, capped at 30 s, reset after two
//     quiet minutes;
//   - every ResyncPeriod the store's Resync is called.
//   - With UseWatchList, the initial state comes from one WATCH with
//     sendInitialEvents=true instead of a LIST; if the server rejects it the
//     reflector falls back to LIST+WATCH, as client-go does.
//
// What we simplify: no pager type (a loop follows continue tokens), no
// metrics, no "expected type" checks beyond what the ListerWatcher decodes,
// and the WatchList mode keeps the initial objects in a slice rather than a
// temporary store.
package reflector
