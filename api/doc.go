// Package api is kubeloop's object model: the Go types of every kind the
// cluster stores, and their JSON wire form, which is byte-for-byte the one a
// real Kubernetes apiserver speaks, so the genuine kubectl and client-go can
// read and write them.
//
// Where it sits on the spine: every other package speaks in these types. The
// apiserver decodes request bodies into them, the store encodes them into etcd,
// the watch cache fans them out, the informer caches them, and controllers
// reconcile them.
//
// What is here:
//   - TypeMeta, ObjectMeta, ListMeta, Time, OwnerReference (meta.go),
//   - the kinds: Pod, ConfigMap, Node, Namespace, Event, Binding, ReplicaSet,
//     Lease, Scale, and a List per kind,
//   - Status errors and their predicates (errors.go),
//   - watch events (watch.go),
//   - label and field selectors,
//   - the resource registry that maps kind ↔ resource ↔ Go type (registry.go).
//
// How Kubernetes does it: the types live in k8s.io/api (core/v1/types.go,
// apps/v1/types.go) and k8s.io/apimachinery (pkg/apis/meta/v1/types.go); the
// mapping between kinds and Go types is a runtime.Scheme
// (apimachinery/pkg/runtime/scheme.go) and the kind ↔ resource mapping is a
// RESTMapper. Errors are apimachinery/pkg/api/errors/errors.go. All pinned to
// v1.37.2.
//
// What we simplify: one version per group (no internal types, no conversion),
// JSON only (no protobuf), and a registry that is a plain table instead of a
// Scheme. Only the fields the rest of kubeloop uses are modelled; a manifest
// with other fields decodes, and the apiserver reports the unknown ones.
package api
