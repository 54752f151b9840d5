// Package informer turns a resource's LIST+WATCH into a local, indexed cache
// and a stream of handler calls. It is what lets controllers never poll: they
// read the cache and are told when something changed.
//
// Where it sits on the spine (arrow 3, inside the controller; reading-path
// step 5): reflector → DeltaFIFO → (this package) indexer
// + handlers → workqueue. A SharedIndexInformer owns one reflector and one
// DeltaFIFO; each Pop applies a key's deltas to the Indexer, then hands an
// add, update or delete notification to every registered handler, each on
// its own goroutine behind an unbounded buffer.
//
// Kubernetes counterparts (client-go v0.37.2, tools/cache): shared_informer.go
// (sharedIndexInformer, HandleDeltas, AddEventHandlerWithResyncPeriod,
// sharedProcessor.shouldResync, processorListener), thread_safe_store.go and
// index.go (the Indexer), listers.go, mutation_detector.go, and
// informers/factory.go for the SharedInformerFactory.
//
// Behaviour kept: a handler added after start first gets OnAdd for every
// cached object (isInInitialList=true), then live events; HasSynced is true
// once the first list has been popped, and a registration's HasSynced once
// its handler has also seen every initial object; resync delivers
// OnUpdate(old, new) with old == new only to handlers whose period is due;
// OnDelete may receive a deltafifo.DeletedFinalStateUnknown; AddIndexers
// works after start; KUBELOOP_CACHE_MUTATION_DETECTOR=true makes the informer
// panic, naming the object and field, when cached objects are changed.
//
// What we simplify: the DeltaFIFO is the classic one (client-go now defaults
// to RealFIFO; see package deltafifo), handler buffers are plain slices, the
// factory keys informers by resource only (no per-namespace or tweak-list
// variants: make a second factory for a narrowed view, as the kubelet does),
// and there is no transform function.
package informer
