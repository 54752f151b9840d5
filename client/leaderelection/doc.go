// Package leaderelection lets several copies of a component run while only
// one acts: they compete for a coordination.k8s.io Lease, the holder renews
// it, and when the holder stops renewing another takes over.
//
// Where it sits: the controller manager (and, in Kubernetes, the scheduler)
// wraps its controllers in Run; only OnStartedLeading starts them.
//
// Kubernetes counterpart: client-go v0.37.2 tools/leaderelection
// (leaderelection.go: LeaderElector.Run, acquire, renew, tryAcquireOrRenew;
// resourcelock/leaselock.go). Defaults as in kube-controller-manager: lease
// duration 15 s, renew deadline 10 s, retry period 2 s.
//
// Semantics kept: a candidate takes the lease only when it is free or its
// last renewal is older than the lease duration *as observed by the
// candidate's own clock* (it remembers when it last saw the record change,
// so clock skew between machines does not matter); the holder renews every
// retry period and gives up (OnStoppedLeading) when it could not renew for
// the renew deadline; a takeover bumps leaseTransitions; ReleaseOnCancel
// clears the holder so a successor need not wait out the lease.
//
// What we change: Run waits for OnStartedLeading to return before it
// releases the lease and returns, so with ReleaseOnCancel a successor never
// overlaps the work the lease guards (client-go leaves that to the caller).
//
// What we simplify: only the Lease lock (no ConfigMap/Endpoints/multi
// locks), no health-check adaptor, no coordinated leader election.
package leaderelection
