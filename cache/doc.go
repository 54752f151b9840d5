// Package cache is the informer's local cache, the Indexer: a thread-safe
// map from key ("namespace/name") to object, plus secondary indexes (by
// namespace, by owner UID, by anything an IndexFunc computes) kept in step
// on every write, so "the pods of this namespace" is one map lookup. The
// informer writes it as it pops deltas (spine arrow 3, reading-path step 5),
// the DeltaFIFO reads it as its KnownObjects, listers and controllers read it.
//
// Kubernetes counterpart: client-go v0.37.2 tools/cache/thread_safe_store.go
// (threadSafeMap: Add, Update, Delete, Replace, ByIndex, IndexKeys,
// AddIndexers; storeIndex.updateIndices) and tools/cache/index.go (Indexer,
// IndexFunc, MetaNamespaceIndexFunc). client-go keeps it in tools/cache with
// the informer; kubeloop gives each tools/cache concept its own package, as
// it does the reflector and the DeltaFIFO.
//
// What we simplify: the key function is the whole Store layer (client-go's
// store.go wraps the thread-safe map with it); no Index or
// ListIndexFuncValues.
package cache
