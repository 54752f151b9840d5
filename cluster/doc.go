// Package cluster starts the API of a kubeloop cluster in one process: an
// embedded etcd (or an external one) and the apiserver on 127.0.0.1, with a
// kubeconfig and a ready admin Client, plus whatever components the caller
// passes (Options.Components). It is what tests and exercises use to get a
// real apiserver without downloading binaries (the role envtest plays for
// controller-runtime). The standard components — controller manager,
// scheduler, N simulated nodes — are package cluster/full's: that is what
// `make run` starts.
//
// Each component still talks to the apiserver only over HTTP, through a
// client built from the cluster's kubeconfig: the process boundary is gone,
// the network boundary is not. `kubeloop apiserver`, `kubeloop
// controller-manager`, `kubeloop scheduler` and `kubeloop kubelet` run the
// same components as separate processes.
//
// Like envtest, a cluster without controllers leaves the ServiceAccount
// admission plugin off, since no namespace would get its default account;
// a component that makes those accounts (cluster/full's controller
// manager) turns it on (grants.go, admissionPlugins).
//
// Kubernetes counterpart: none in-tree; controller-runtime's pkg/envtest
// starts real etcd and kube-apiserver binaries, and kind/minikube start whole
// clusters in containers. kubeloop needs neither.
package cluster
