// Package clustertest is the scaffolding shared by the test suites that
// need a running cluster: the kubelet, the scheduler, the controllers and
// kubectl-lite. Each of those packages used to carry its own copy of the
// same TestMain, per-test context and namespace helper; this package holds
// the one copy, so a fix (a longer start deadline, a namespace name that
// survives -count=N) lands everywhere at once.
//
// It starts a real cluster — embedded etcd and the apiserver on 127.0.0.1,
// through package cluster — and never a fake: the tests it serves exist to
// show the components working over HTTP against real storage.
//
// Where it sits: beside the spine, used only from _test.go files. The
// package under test decides which of its own loops run as cluster
// components (cluster.Options.Components); clustertest only starts, shares
// and stops the cluster.
//
// Kubernetes counterpart: test/integration/framework
// (framework.StartTestServer, framework.CreateNamespaceOrDie in
// test/integration/framework/util.go at v1.37.2) plays this part for the
// in-tree integration tests. We simplify: one cluster per test binary
// rather than one apiserver per test, and no shutdown of namespaces (the
// cluster and its temporary etcd are thrown away when the binary exits).
package clustertest
