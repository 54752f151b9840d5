// Package controllers is the controller manager: it runs a chosen set of
// controllers in one process, over one shared informer factory, behind an
// optional leader election, and serves their workqueue metrics.
//
// Each controller lives in its own sub-package (replicaset, deployment,
// job, ttlafterfinished, garbagecollector, nodelifecycle, namespace,
// serviceaccount, podgc, rootcacertpublisher, clusterroleaggregation,
// labeler; KnownControllers is the table of them, docs/controller-manager.md
// walks through them) and has the same skeleton, the one of
// Kubernetes' sample-controller: NewController wires informers → handlers
// that only enqueue keys → a rate-limited workqueue; Run waits for the caches
// and starts workers; each worker's ProcessNextWorkItem does Get / Done /
// Forget or AddRateLimited; syncHandler is the level-triggered reconcile.
// Run and the worker loop are written once, in package controllers/worker,
// and every controller with a queue of keys uses that Loop, so what differs
// from one controller to the next is its syncHandler and, for a few, what a
// failed key does (the namespace controller waits for content to go away,
// the Deployment controller drops a key after 15 retries, the labeler
// logs a conflict as routine). The
// garbage collector (two queues of graph nodes) and the pod GC (a periodic
// sweep, no queue of keys) are not such loops and keep their own Run.
//
// On the spine (docs/architecture.md) the ReplicaSet controller is spine
// arrows 3–5; reading-path steps 6 and 7 (docs/reading-path.md) step
// through its queue and its reconcile.
//
// Kubernetes counterpart: cmd/kube-controller-manager/app/controllermanager.go
// at v1.37.2 (Run, NewControllerDescriptors, the --controllers flag with "*"
// and "-name", leader election on a Lease in kube-system, /metrics and
// /healthz).
//
// "*" is every known controller, the tutorial's labeler included
// ("--controllers=*,-labeler" leaves it out; Kubernetes' "*" also leaves out
// the controllers it disables by default, of which kubeloop has none). The
// controllers' own flags (--min-resync-period, --labeler-namespaces,
// --terminated-pod-gc-threshold) reach them as the ComponentConfig, and the
// shared informers resync at ResyncPeriod: a random period between
// --min-resync-period and twice that, as in Kubernetes.
//
// With leader election, the controllers stop before the lease is released;
// a manager that loses its lease stops its controllers and competes again (kube-controller-manager exits instead, but here the
// manager may share its process with the whole cluster).
//
// Each controller writes with the manager's client, or, with
// UseServiceAccountCredentials (--use-service-account-credentials), with a
// client of its own ServiceAccount (clientbuilder.go); the shared
// informers read as the manager either way.
//
// What we simplify: no per-controller health checks, and the informer
// factory is started once after every controller has registered its
// informers.
package controllers
