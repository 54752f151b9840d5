package replicaset

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/cluster"
	"kubeloop/informer"
)

// isolatedLabel marks ReplicaSets and pods the shared controller leaves
// alone, because their test runs a controller of its own (delayed watch,
// counted writes).
const isolatedLabel = "kubeloop.test/isolated"

// testCluster is one apiserver + etcd for the package, with the production
// wiring of the controller as its only component. Tests isolate themselves
// by namespace.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	os.Setenv("KUBELOOP_CACHE_MUTATION_DETECTOR", "true")
	level := slog.LevelWarn
	if os.Getenv("KUBELOOP_TEST_LOGS") != "" {
		level = slog.LevelDebug
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	c, err := cluster.Start(ctx, cluster.Options{Components: cluster.Components{Extra: []cluster.Component{
		{Name: ControllerName, Run: runSharedController},
	}}})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "start cluster:", err)
		os.Exit(1)
	}
	testCluster = c
	code := m.Run()
	c.Stop()
	os.Exit(code)
}

// runSharedController wires the controller as the controller manager does:
// one shared informer factory, an event recorder, default options.
func runSharedController(ctx context.Context, c *cluster.Cluster) error {
	cl, err := c.NewClient(ControllerName)
	if err != nil {
		return err
	}
	factory := informer.NewClientInformerFactory(cl, 0, func(o *api.ListOptions) {
		o.LabelSelector = "!" + isolatedLabel
	})
	rec := record.NewRecorder(cl, ControllerName, "")
	rsc := NewController(cl, informer.For[*api.ReplicaSet](factory), informer.For[*api.Pod](factory), rec, Options{})
	done := make(chan struct{})
	go func() { defer close(done); rec.Run(ctx) }()
	factory.Start(ctx)
	rsc.Run(ctx, 5)
	factory.Shutdown()
	<-done
	return nil
}

// newNamespace creates a namespace named after base, unique so that
// -count=N reruns on the same cluster do not collide, and returns it with a
// client of the shared cluster.
func newNamespace(t *testing.T, base string) (string, *client.Client) {
	t.Helper()
	cl := testCluster.Client
	ns := base + "-" + uuid.NewString()[:8]
	_, err := client.For[*api.Namespace](cl).Create(testCtx(t), &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}, client.CreateOptions{})
	if err != nil {
		t.Fatalf("create namespace %s: %v", ns, err)
	}
	return ns, cl
}

// testCtx is cancelled when the test ends.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}
