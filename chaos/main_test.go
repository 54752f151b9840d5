package chaos

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// long selects the full sizes of make chaos; make test runs the short ones.
var long = flag.Bool("chaos.long", false, "full-size scenarios (make chaos)")

// kubeloopBin is the kubeloop command, built once for every scenario that
// runs it as its own process (a process is what kill -9 hits).
var kubeloopBin string

func TestMain(m *testing.M) {
	if os.Getenv(etcdMemberEnv) != "" {
		runEtcdMember() // this process is one member of a test's etcd cluster
		return
	}
	flag.Parse()
	// The informers' and clusters' own logs say what the faults do to
	// them at Info level, thousands of lines per scenario: warnings only.
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	dir, err := os.MkdirTemp("", "kubeloop-chaos-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	kubeloopBin = filepath.Join(dir, "kubeloop")
	build := exec.Command("go", "build", "-o", kubeloopBin, "kubeloop/cmd/kubeloop")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building kubeloop:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// size picks the short or the long form of a count.
func size(short, full int) int {
	if *long {
		return full
	}
	return short
}

// freeAddr returns a loopback address nobody listens on right now, for a
// process that must come back on the same address after a restart.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// testCtx ends with the test, and at the latest after d.
func testCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
