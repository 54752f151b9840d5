// Package apiserver is kubeloop's Kubernetes API server: the HTTP front of
// the cluster. Every other component — controllers, scheduler, kubelets,
// kubectl and client-go — reads and writes the cluster only through it.
//
// Where it sits on the spine:
//
//	kubectl / client ──HTTP──▶ apiserver ──▶ watchcache ──▶ store ──▶ etcd
//
// A request is parsed into a requestInfo (routes.go), routed to a verb
// handler (get.go, watch.go, create.go, update.go, patch.go, delete.go,
// subresources.go), and a write runs: decode (with fieldValidation,
// fieldvalidation.go) → server-owned metadata (meta.go) → mutating
// admission → generation → validating admission → the resource's
// store.Interface (storage.go: the etcd store behind a watch cache). Errors
// are always a Status (errors.go); discovery, /version, health and
// Prometheus metrics are served beside the API (discovery.go, health.go,
// metrics.go). In the background the server empties deleted namespaces
// (namespace.go) and compacts etcd's history every 5 minutes, keeping the
// last 10000 revisions (Config.CompactionInterval; kube-apiserver compacts
// on the same period but by age, see store.RunCompactor).
//
// What real clients need beyond the verbs (the conformance/ module drives
// the genuine kubectl 1.32/1.33 and client-go v0.37.2 against it):
//   - Aggregated discovery v2 on /api and /apis when the Accept header asks
//     for it, legacy discovery otherwise (discovery_aggregated.go).
//   - /openapi/v3: an index and one schema-less document per group-version
//     whose PATCH operations declare fieldValidation, so kubectl leaves
//     validation to the server instead of fetching /openapi/v2
//     (openapi.go).
//   - meta.k8s.io Table output with kubectl's columns for every kind, in
//     get, list and watch (tables.go, tableprinters.go).
//   - Strategic merge patch (package strategicpatch), so client-side
//     `kubectl apply` works.
//   - Protobuf request bodies for ConfigMap and Namespace, which kubectl's
//     `create configmap` and `create namespace` send regardless
//     (protobuf.go).
//
// Kubernetes counterparts (kubernetes v1.37.2):
//   - staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go
//     (RequestInfoFactory.NewRequestInfo) — routes.go
//   - staging/src/k8s.io/apiserver/pkg/endpoints/handlers/get.go, create.go,
//     update.go, patch.go, delete.go, watch.go, rest.go — the verb handlers
//   - staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go
//     (Store.Create, Update, Delete, shouldDeleteDuringUpdate,
//     deletionFinalizersForGarbageCollection) — create.go, update.go, delete.go
//   - staging/src/k8s.io/apiserver/pkg/registry/rest/create.go, update.go
//     (BeforeCreate, BeforeUpdate, FillObjectMetaSystemFields) — meta.go
//   - pkg/registry/core/pod/storage/storage.go (BindingREST, assignPod) and
//     pkg/registry/core/pod/strategy.go (CheckGracefulDelete) — binding,
//     graceful pod deletion
//   - pkg/registry/apps/replicaset/storage/storage.go (ScaleREST) — scale
//   - pkg/registry/core/namespace/storage/storage.go (REST.Delete) and
//     pkg/controller/namespace/deletion — namespace deletion
//   - staging/src/k8s.io/apiserver/pkg/endpoints/discovery and
//     discovery/aggregated — discovery.go, discovery_aggregated.go
//   - pkg/printers/internalversion/printers.go and
//     staging/src/k8s.io/apiserver/pkg/endpoints/handlers/response.go
//     (asTable) — tables.go, tableprinters.go
//   - staging/src/k8s.io/kube-openapi/pkg/handler3 — openapi.go
//   - staging/src/k8s.io/apiserver/pkg/server/filters/wrap.go
//     (WithPanicRecovery) — handler.go
//
// Choices and simplifications (what Kubernetes does that we do not):
//   - JSON only: responses are always JSON; request bodies are JSON except
//     the protobuf ConfigMap and Namespace bodies above; no YAML bodies. The
//     OpenAPI documents carry no schemas.
//   - No authentication, authorization, audit, priority and fairness, API
//     aggregation, dry run, or managedFields. Plain HTTP on loopback.
//   - PATCH supports merge patch, JSON patch and strategic merge patch.
//     Server-side apply (application/apply-patch+yaml) is NOT supported: it
//     is answered 415 with a Status saying so, which kubectl prints as
//     "Server-side apply not available on the server: (...)". There is no
//     managedFields.
//   - The main resource ignores status; /status changes only status,
//     labels and annotations. Generation is compared after defaulting.
//   - DELETE replies 200 with the object for every kind (Kubernetes sends a
//     Status for some kinds). Only bound pods get a grace period; everything
//     else goes at once unless it has finalizers.
//   - Namespace deletion is finished inside the apiserver (namespace.go): a
//     small finalizer loop deletes everything in a terminating namespace
//     and then removes it, so `kubectl delete namespace` completes without a
//     controller manager. Kubernetes does this in kube-controller-manager.
//   - Binding a pod to a node that does not exist is allowed, as in
//     Kubernetes: the pod is simply never started.
//   - NamespaceLifecycle reads namespaces from the watch cache and falls
//     back to etcd on a miss, like Kubernetes' informer-backed plugin.
package apiserver
