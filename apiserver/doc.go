// Package apiserver is kubeloop's Kubernetes API server: the HTTP front of
// the cluster. Every other component — controllers, scheduler, kubelets,
// kubectl and client-go — reads and writes the cluster only through it.
// This package wires the server together (Config, New, Run); the work is
// done by its sub-packages, in Kubernetes' layers, each calling only the
// ones below it:
//
//	filters      panic recovery, request info, authentication,        (filters/)
//	             impersonation, in-flight limit, authorization
//	  ↓
//	endpoints    route /api, /apis to the handler of a verb           (endpoints/, endpoints/request/)
//	  ↓
//	handlers     one generic handler per verb; content negotiation;   (endpoints/handlers/,
//	             mutating admission                                    …/negotiation/, …/responsewriters/, serializer/)
//	  ↓
//	registry     one REST storage per resource from its strategy:      (registry/rest/, registry/generic/,
//	             prepare, validate, validating admission, delete       registry/core/{pod,namespace,secret,serviceaccount}/,
//	                                                                   registry/apps/{replicaset,deployment}/, registry/batch/job/)
//	  ↓
//	store        etcd behind the watch cache                          (kubeloop/store, kubeloop/watchcache)
//
// Where it sits on the spine: spine arrows 1 and 2 (docs/architecture.md),
// reading-path step 2 (docs/reading-path.md).
//
//	kubectl / client ──HTTP──▶ apiserver ──▶ watchcache ──▶ store ──▶ etcd
//
// How a write travels (PATCH .../replicasets/web/scale, "scale to 5"):
//  1. filters.WithRequestInfo parses the URL once into a RequestInfo
//     (verb patch, group apps, resource replicasets, subresource scale).
//  2. endpoints.APIHandler routes it to the handler the installer made for
//     replicasets/scale and verb patch: handlers.PatchResource over the
//     scale's REST storage (generic.ScaleREST).
//  3. PatchResource reads the patch and hands the registry an
//     UpdatedObjectInfo: "apply this patch to whatever is stored, decode
//     it, check it against the URL, run mutating admission".
//  4. ScaleREST.Update turns the stored ReplicaSet into its Scale, lets the
//     patch make the new Scale, validates it and writes its replicas into
//     the ReplicaSet, through the ReplicaSet's generic.Store.
//  5. generic.Store.Update runs the read-modify-write: rest.BeforeUpdate
//     carries the server-owned metadata over and the strategy prepares the
//     object (keeps the stored status, bumps metadata.generation because
//     the spec changed), the strategy validates it, validating admission
//     judges it, and store.GuaranteedUpdate commits it with an etcd
//     transaction guarded by the object's ModRevision — retrying from point
//     3 on a conflict.
//  6. The handler answers with responsewriters, in the media type the
//     client's Accept header negotiated (JSON).
//
// Also here, beside the layers: the storage of every resource and the
// table of registries (storage.go), the handler chain (handler.go),
// /healthz, /readyz and /version (health.go), etcd compaction every 5
// minutes keeping the last 10000 revisions (server.go; kube-apiserver
// compacts on the same period but by age, see store.RunCompactor), the
// default namespaces (namespaces.go). Emptying a deleted namespace is not
// the apiserver's work: the namespace controller (controllers/namespace)
// does it from the controller manager, as in Kubernetes; the apiserver's
// part is NamespaceLifecycle admission and the finalize subresource.
//
// The compatibility pieces real clients need, off the reading path, each
// its own package:
//   - discovery: legacy and aggregated discovery (v2) under /api and /apis.
//   - openapi: /openapi/v2 and /openapi/v3 (an index and one document per
//     group-version) with the schemas of every kind (openapi/spec, by
//     reflection over the api types; descriptions from their comments), so
//     `kubectl explain` works, and PATCH operations that declare
//     fieldValidation, so kubectl leaves validation to the server.
//   - printers: meta.k8s.io Table output with kubectl's columns for every
//     kind, in get, list and watch.
//   - strategicpatch: strategic merge patch, so client-side `kubectl
//     apply` works; its merge keys are the api types' struct tags, the same
//     the OpenAPI schemas publish.
//
// Kubernetes counterparts (kubernetes v1.37.2):
//   - staging/src/k8s.io/apiserver/pkg/server/config.go (New,
//     DefaultBuildHandlerChain) — server.go, handler.go
//   - pkg/controlplane/instance.go and each group's
//     pkg/registry/<group>/rest/storage_<group>.go (NewRESTStorage) —
//     storage.go (restStorageProviders)
//   - staging/src/k8s.io/apiserver/pkg/server/healthz — health.go
//   - pkg/controlplane/controller/systemnamespaces — namespaces.go
//   - each layer's counterparts are in its package's doc.go.
//
// Custom resources: CustomResourceDefinitions are a built-in kind; the
// custom resources they define are served by apiextensions/crdserving, a
// table of endpoints built at run time, which the API handler delegates to
// for every group, version or resource the registry does not have
// (customresources.go). Server.StructuralSchema gives a served custom
// resource's structural schema by group, version and resource.
//
// Choices and simplifications (what Kubernetes does that we do not):
//   - Request bodies are JSON, YAML (application/yaml, as kube-apiserver
//     accepts) or protobuf; answers and watch streams are JSON or protobuf,
//     whichever the Accept header prefers (Tables are JSON only, as in
//     Kubernetes). Client-go's typed clients and controller-runtime speak
//     protobuf by default, kubectl JSON. Adding a media type is one entry in
//     serializer.SupportedMediaTypes.
//   - Dry run is supported: dryRun=All on create, update, patch, delete and
//     deletecollection, the status, scale and binding subresources
//     included, runs defaulting, admission and validation and answers what
//     would have been stored, storing nothing (registry/generic/dryrun.go,
//     as Kubernetes' DryRunnableStorage). Any other dryRun value is 422
//     Invalid, as Kubernetes' ValidateDryRun makes it. So `kubectl apply
//     --dry-run=server` and `kubectl diff` work.
//   - No authentication, authorization, audit, priority and fairness, API
//     aggregation. Plain HTTP on loopback.
//   - PATCH supports merge patch, JSON patch, strategic merge patch and
//     server-side apply (application/apply-patch+yaml, package
//     fieldmanager); every write records metadata.managedFields. Apply to
//     the scale and binding subresources is 415.
//   - The main resource ignores status; /status changes only status,
//     labels and annotations. Generation is compared after defaulting.
//   - DELETE replies 200 with the object for every kind (Kubernetes sends a
//     Status for some kinds). Only bound pods get a grace period; everything
//     else goes at once unless it has finalizers.
//   - A deleted namespace stays Terminating until something removes its
//     "kubernetes" finalizer through namespaces/NAME/finalize: the
//     namespace controller of the controller manager, as in Kubernetes. An
//     apiserver run alone (`kubeloop apiserver`) never empties namespaces.
//   - Binding a pod to a node that does not exist is allowed, as in
//     Kubernetes: the pod is simply never started.
//   - NamespaceLifecycle reads namespaces from the watch cache and falls
//     back to etcd on a miss, like Kubernetes' informer-backed plugin.
//   - The in-flight gauge counts every request but watches; there is no
//     in-flight limit.
package apiserver
