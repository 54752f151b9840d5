package clustertest

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
)

const (
	// startTimeout bounds cluster.Start: etcd and the apiserver start in a
	// second or two, but a loaded machine running -race needs headroom.
	startTimeout = 60 * time.Second
	// requestTimeout bounds one test's API calls made through Context: far
	// above any Eventually deadline, so it only ever stops a hung test.
	requestTimeout = 90 * time.Second
	// maxNameBase leaves room in a 63-character DNS label for the random
	// suffix and for what tests derive from the namespace (node names,
	// label values such as "<ns>-n19").
	maxNameBase = 40
)

// Main is a package's TestMain: it turns on the informer cache mutation
// detector, keeps slog quiet (Warn; KUBELOOP_TEST_LOGS=1 for Debug),
// starts one cluster for the whole test binary, hands it to setup, runs the
// tests, stops the cluster and exits with the tests' code.
func Main(m *testing.M, opts cluster.Options, setup func(c *cluster.Cluster)) {
	os.Exit(run(m, opts, setup))
}

func run(m *testing.M, opts cluster.Options, setup func(c *cluster.Cluster)) int {
	// Every informer in the binary then panics if a test or a component
	// writes to an object it got from a cache.
	os.Setenv("KUBELOOP_CACHE_MUTATION_DETECTOR", "true")
	level := slog.LevelWarn
	if os.Getenv("KUBELOOP_TEST_LOGS") != "" {
		level = slog.LevelDebug
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))

	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	c, err := cluster.Start(ctx, opts)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "clustertest: start cluster:", err)
		return 1
	}
	defer c.Stop()
	if setup != nil {
		setup(c)
	}
	return m.Run()
}

// Context is cancelled when the test ends, or after requestTimeout.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	t.Cleanup(cancel)
	return ctx
}

// Go runs fn on its own goroutine until the test ends: the test's cleanup
// cancels fn's context and waits for fn to return, so nothing the test
// started outlives it (and the race detector sees the end of every write).
func Go(t testing.TB, fn func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

// Namespace creates a namespace for the test and returns its name: the
// test's name as a DNS label plus a random suffix, so that tests sharing
// the cluster, and reruns under -count=N, never meet.
func Namespace(t testing.TB, c *cluster.Cluster) string {
	t.Helper()
	name := namespaceName(t.Name()) + "-" + uuid.NewString()[:8]
	CreateNamespace(t, c, name)
	return name
}

// CreateNamespace creates the namespace name as given. It is for tests whose
// output shows the name (golden files) and must not vary; others use
// Namespace. It returns once pods may be created there: when the cluster
// admits pods only with their ServiceAccount, after the namespace's
// default account exists.
func CreateNamespace(t testing.TB, c *cluster.Cluster, name string) {
	t.Helper()
	_, err := client.For[*api.Namespace](c.Client).Create(Context(t),
		&api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}, client.CreateOptions{})
	require.NoError(t, err, "create namespace %s", name)
	require.NoError(t, c.WaitForDefaultServiceAccount(Context(t), name))
}

// namespaceName turns a test name ("TestX/case_1") into the start of a DNS
// label ("testx-case-1"): lower case, every run of other characters one
// dash, at most maxNameBase characters.
func namespaceName(testName string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(testName) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	name := b.String()
	if len(name) > maxNameBase {
		name = strings.TrimRight(name[:maxNameBase], "-")
	}
	if name == "" {
		name = "test"
	}
	return name
}
