// Package informer turns a resource's LIST+WATCH into a local, indexed cache
// and a stream of handler calls. It is what lets controllers never poll: they
// read the cache and are told when something changed.
//
// Where it sits on the spine (arrow 3, inside the controller; reading-path
// step 5): reflector → DeltaFIFO → (this package) → workqueue. A
// SharedIndexInformer owns one reflector and one DeltaFIFO; each Pop applies
// a key's deltas to its cache.Indexer, then hands an add, update or delete
// notification to every handler, each on its own goroutine behind an
// unbounded buffer. The reflector loads the state, and reloads it after a
// 410, through a watch-list stream (UseWatchList), LISTing only when that
// fails, as client-go v0.37.2 does by default: its WatchListClient gate is on
// since 1.35 (features/known_features.go), read in NewReflectorWithOptions.
//
// Kubernetes counterpart: client-go v0.37.2 tools/cache/shared_informer.go —
// sharedIndexInformer (Run, HandleDeltas, AddEventHandlerWithResyncPeriod),
// sharedProcessor.shouldResync, processorListener, WaitForCacheSync — and
// mutation_detector.go. Its factory and typed listers are packages informers
// and listers, as in client-go; its Indexer is package cache.
//
// Behaviour kept: a handler added after start first gets OnAdd for every
// cached object (isInInitialList=true), then live events; HasSynced is true
// once the first state (streamed or listed) has been popped, a registration's
// once its handler has also seen every initial object; resync delivers
// OnUpdate(old, new) with old == new only to handlers whose period is due;
// OnDelete may receive a DeletedFinalStateUnknown; AddIndexers works after
// start; KUBELOOP_CACHE_MUTATION_DETECTOR=true panics, naming object and
// field, when a cached object is changed.
//
// What we simplify: the DeltaFIFO is the classic one (client-go now defaults
// to RealFIFO; see package deltafifo), handler buffers are plain slices, no
// RemoveEventHandler, no switch to turn the watch-list off (client-go's:
// KUBE_FEATURE_WatchListClient=false); a transform is given once, in
// Options.Transform, not set later with SetTransform.
package informer
