// Package full starts the standard kubeloop cluster: the API (package
// cluster) plus the controller manager, the scheduler and simulated nodes.
// It is what `kubeloop up` and `make run` start, and what tests of whole
// scenarios (kubectl-lite, exercises, conformance) use:
//
//	c, err := full.Start(ctx, cluster.Options{}, full.Options{Nodes: 3})
//
// It is separate from package cluster so that the components' own tests
// can start a cluster (with just the component under test) without an
// import cycle.
//
// Kubernetes counterpart: none in-tree (kind and minikube start whole
// clusters in containers; kube-controller-manager, kube-scheduler and the
// kubelet are separate binaries). What we simplify: every component runs in
// this one process, each still talking to the apiserver over HTTP.
package full
