// Package storetest starts a real embedded etcd for the tests of other
// packages (watchcache, apiserver, cluster). There is no fake store: every
// test that stores objects talks to etcd.
//
// One etcd per test package is enough; share it from TestMain and give each
// test its own namespace or key prefix:
//
//	var etcd *store.Embedded
//
//	func TestMain(m *testing.M) {
//		storetest.Main(m, func(e *store.Embedded) { etcd = e })
//	}
package storetest

import (
	"fmt"
	"os"
	"testing"

	"kubeloop/store"
)

// StartEtcd starts an etcd in a temporary directory on free ports and stops
// it (and removes the directory) when tb finishes.
func StartEtcd(tb testing.TB) *store.Embedded {
	tb.Helper()
	e, err := store.StartEmbedded(testConfig(tb.TempDir()))
	if err != nil {
		tb.Fatalf("start etcd: %v", err)
	}
	tb.Cleanup(e.Close)
	return e
}

// Main is a TestMain body: it starts one etcd, hands it to setup, runs the
// package's tests, stops etcd and exits with the tests' status.
func Main(m *testing.M, setup func(e *store.Embedded)) {
	os.Exit(run(m, setup))
}

func run(m *testing.M, setup func(e *store.Embedded)) int {
	dir, err := store.TempDataDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, "storetest:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	e, err := store.StartEmbedded(testConfig(dir))
	if err != nil {
		fmt.Fprintln(os.Stderr, "storetest:", err)
		return 1
	}
	defer e.Close()
	if setup != nil {
		setup(e)
	}
	return m.Run()
}

// testConfig trades durability for speed (no fsync) and silences etcd below
// fatal: at shutdown etcd logs its closing listeners as errors, which would
// end every test run with noise. A real failure still fails the test.
func testConfig(dir string) store.EmbeddedConfig {
	return store.EmbeddedConfig{DataDir: dir, UnsafeNoFsync: true, LogLevel: "fatal"}
}
