// Package labeler is the smallest complete controller in kubeloop: it makes
// sure every ConfigMap (in the namespaces it is given, or in all of them)
// carries the label managed-by=configmap-controller, and puts the label back
// whenever someone removes or changes it. The business logic is one map
// write; the package exists to show the plumbing every controller shares.
//
// Where it sits on the spine: apiserver → watch → informer (cache) →
// event handler (enqueue a "namespace/name" key) → rate-limited workqueue →
// worker → syncConfigMap (read the cache, DeepCopy, Update through the
// client) → apiserver, whose watch brings our own write back, and the
// second pass finds nothing to do.
//
// The shape is that of Kubernetes' sample-controller
// (staging/src/k8s.io/sample-controller/controller.go at v1.37.2:
// NewController, Run, runWorker, processNextWorkItem, syncHandler) and the
// logic that of the ConfigMap controller in the control-loop tutorial
// ("The Control Loop: Kubernetes' Hidden Superpower"). Things worth noticing:
//
//   - Add and Update handlers do the same thing (enqueue the key); there is
//     no Delete handler, because a deleted ConfigMap needs no label.
//   - The reconcile reads only the informer's cache and returns early when
//     the label is already right, so a resync or our own write echoing back
//     costs no request.
//   - The Update carries the cached resourceVersion: a stale cache makes it
//     fail with 409 Conflict, the key is re-queued with backoff, and the next
//     attempt sees the newer object instead of overwriting it.
//
// What we simplify: the namespace restriction is a filter in the handlers
// over the shared all-namespaces informer (the tutorial builds a factory
// scoped to one namespace); there are no events recorded and no status.
package labeler
