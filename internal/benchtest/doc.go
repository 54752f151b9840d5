// Package benchtest runs the two sides of a benchmark pair — kubeloop and
// its reference — interleaved in one run, so that they see the same
// machine: Interleave cuts b.N operations into rounds and alternates the
// sides round by round (AB BA AB ...), timing each side and the process's
// CPU during its rounds on its own. An arm whose operations start work
// elsewhere (a write whose watch event another goroutine decodes) waits
// for it at the end of each of its rounds (Arm.Settle), so that the work
// is charged to it and not to the arm after it.
//
// Why: the machine `make bench` runs on is a shared 2-core VM whose load
// changes from second to second, and etcd grows with every object. Run
// one after the other, the side that ran second paid for both (a c=64
// store-create pair swung from 0.66× to 1.51× in five runs); interleaved,
// a burst from a neighbour falls on both sides alike and both write into
// the same etcd.
//
// Kubernetes counterpart: none; Kubernetes' own benchmarks
// (test/integration/benchmark, the scalability tests' perf-tests) compare
// runs across commits, not with a reference in the same process.
package benchtest
