// Package chaos holds the fault tests of issue 20: the cluster is killed,
// cut off and fed hostile input while clients write, and every scenario
// ends with the same check (ledger_test.go, converge_test.go):
//
//   - every object acknowledged to a client is there with its last
//     acknowledged content (or with the content of a write that was in
//     flight when the fault hit: that one may or may not have happened);
//   - every informer's cache equals a fresh LIST;
//   - resourceVersions never go back, across restarts included.
//
// The scenarios:
//
//   - kill_test.go: kill -9 of `kubeloop up` while a ReplicaSet scales
//     and writers create and update, then a restart on the same data dir;
//   - watchcut_test.go: watch connections cut at random during churn, and
//     etcd compacted under long watches;
//   - apiservers_test.go: two `kubeloop apiserver` processes on one etcd,
//     with controllers and kubelets split between them;
//   - etcdcluster_test.go: `kubeloop apiserver` on a three-member etcd,
//     a follower killed, then the leader, each restarted;
//   - hostile_test.go: bodies built to hurt (deep nesting, huge strings,
//     10k-operation patches) must get a 4xx, never a 5xx or a crash.
//
// `make test` runs the short form (smaller counts); `make chaos` the long
// one (-chaos.long: 200 pods, 16 writers, a minute of churn) and the
// apiserver's fuzz targets for a fixed number of executions each.
//
// Kubernetes has no one counterpart: its e2e suite's disruptive tests
// (test/e2e/apps/daemon_restart.go, test/e2e/storage's etcd failure
// tests) and the apiserver's fuzzers play the same role.
package chaos
