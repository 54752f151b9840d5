// Package store is kubeloop's storage: Create, Get, GuaranteedUpdate,
// Delete, List and Watch of API objects in etcd, one Store per resource.
//
// Where it sits: spine arrow 2 of "scale to 5" (docs/architecture.md),
// reading-path step 2 (docs/reading-path.md).
//
//	apiserver ──▶ watchcache ──▶ store ──▶ etcd (embedded: direct calls; external: gRPC)
//
// The apiserver writes through it (the watch cache passes writes on), and
// the watch cache fills itself from its List and Watch. Nothing above the
// apiserver imports it.
//
// The model is etcd's:
//   - one key per object, ResourceInfo.Key: /registry/<group>/<resource>/<namespace>/<name>
//     (group "core" for the legacy group);
//   - the value is the object without its resourceVersion: for a
//     built-in kind its protobuf body, as Kubernetes stores it ("k8s\x00"
//     and the runtime.Unknown envelope with apiVersion and kind); for a
//     custom resource its JSON. Reading sniffs the prefix, so JSON written
//     by an older kubeloop still reads (codec.go: EncodeValue,
//     DecodeValue; `kubeloop decode` prints a value for a reader). On
//     every read the key's ModRevision becomes the resourceVersion, so
//     the etcd revision is the only clock;
//   - every write is a transaction guarded by a revision: Create by
//     "ModRevision is 0", GuaranteedUpdate and Delete by "ModRevision is
//     what I read" (optimistic concurrency; a lost race is retried with the
//     value the failed transaction read, and counted in Stats);
//   - List reads one revision: later pages of a paged list read at the
//     first page's revision, carried in Kubernetes' own continue-token
//     format (continue.go);
//   - Watch is etcd's watch from revision+1 with previous values, turned
//     into ADDED / MODIFIED / DELETED and filtered by the predicate; an
//     object that stops matching is DELETED for that watcher.
//   - A watch that allows bookmarks turns etcd's progress notifications
//     into BOOKMARK events at the notified revision, and
//     RequestWatchProgress asks etcd for one (watcher.go): that is how the
//     watch cache proves it is current for a resource nobody writes.
//   - Every watch has a gRPC stream of its own, where Kubernetes' share
//     their client's: on an embedded etcd's in-process client a storm of
//     cancellations can deadlock a shared stream (watch_streams.go).
//
// Compacted revisions: List at one (Exact, or a continue token) and Watch
// from one return a 410 Expired *api.StatusError from the call. If
// compaction overtakes a watch that is already running, the watch sends one
// ERROR event whose object is the 410 Expired *api.Status and closes.
//
// An object too big for etcd (over its request limit, 1.5 MiB unless
// configured, or the gRPC client's 2 MiB send limit) is a 413
// RequestEntityTooLarge *api.StatusError from Create and GuaranteedUpdate
// (errors.go), not an internal error: the apiserver accepts bodies of up to
// 3 MiB, so a valid request can make one.
//
// Also here: StartEmbedded runs etcd in-process (embedded.go) and hands
// out a client that calls the server directly, without gRPC on a socket
// (other processes still dial its Endpoints); NewClient connects to an
// external one, Compact and RunCompactor discard history
// (compact.go), and package storetest starts an etcd for other packages'
// tests.
//
// Kubernetes counterpart (release v1.37.2):
// staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go (Create, Get,
// GuaranteedUpdate, Delete, GetList), watcher.go (Watch, the event
// transform), errors.go (the 410 messages), compact.go; the continue token
// is staging/src/k8s.io/apiserver/pkg/storage/continue.go; the storage
// codec (protobuf or JSON, sniffed on reading) is built by
// staging/src/k8s.io/apiserver/pkg/server/storage/storage_codec.go. Kubernetes
// recognises the two too-large errors in endpoints/handlers/rest.go
// (isTooLargeError), retries once without managedFields, and then answers
// 500; we answer 413 (kubernetes#112152 asks for that).
//
// What we leave out: value transformers and encryption at rest, a choice
// of storage media type (Kubernetes' --storage-media-type), leases and
// TTLs, the list-size estimates and the "inconsistent continue" token
// Kubernetes offers when a snapshot is compacted (we answer 410 and the
// client starts over), the corrupt object deleter, and metrics beyond the
// retry counters. Compaction keeps
// the last N revisions instead of Kubernetes' every-5-minutes.
package store
