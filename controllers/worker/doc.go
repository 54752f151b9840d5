// Package worker is the part of a controller that is the same in every
// controller: Run waits for the informers' caches, starts the workers and
// stops them when the context ends; each worker loops on
// ProcessNextWorkItem, which takes a key from the rate-limited workqueue,
// hands it to the controller's syncHandler and then Forgets it (success) or
// puts it back with AddRateLimited (failure). The controllers under
// controllers/ keep a Loop and their Run is Loop.Run, so what differs from
// one controller to the next is only its syncHandler and, for a few, what
// a failed key does (Loop.HandleErr).
//
// Kubernetes counterpart: every controller in pkg/controller/ at v1.37.2
// writes this loop out again (ReplicaSetController.Run, worker and
// processNextWorkItem in pkg/controller/replicaset/replica_set.go; the
// sample-controller's Run, runWorker, processNextWorkItem). We write it
// once so that the reading path has one loop to step through.
//
// What we simplify: Kubernetes restarts a worker that returns with
// wait.UntilWithContext(ctx, worker, time.Second); ours returns only when
// the queue shuts down, so a worker is a plain goroutine. Run waits for its
// workers before it returns, which Kubernetes' Run does not.
package worker
