//go:build exercise || solution

package status

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/informers"
	"kubeloop/workqueue"
)

// The grader runs your reconciler as a component of one real cluster
// (embedded etcd and the apiserver on 127.0.0.1; nothing else runs), each
// test in its own namespace. The harness counts the status writes the
// controller makes (PUT .../deployments/NAME/status answered 2xx), records
// the syncs and
// which version of the Deployment each one read, and wraps the reconcile to
// catch panics, the stub, and changes to the cached object.
//
// The controller's clock moves one second every time it is read, so a
// reconciler that stamps a new time on every pass writes a new status on
// every pass, and is caught at once: more than maxWrites status requests
// in one test's namespace is reported as a hot loop.

var (
	testCluster *cluster.Cluster
	h           *harness
)

const (
	waitFor   = 20 * time.Second
	tick      = 10 * time.Millisecond
	maxWrites = 25
)

func TestMain(m *testing.M) {
	level := slog.LevelWarn
	if os.Getenv("KUBELOOP_TEST_LOGS") != "" {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(logger)
	h = newHarness()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	c, err := cluster.Start(ctx, cluster.Options{
		Logger:     logger,
		Components: cluster.Components{Extra: []cluster.Component{{Name: "deployment-status", Run: h.runController}}},
	})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "start cluster:", err)
		os.Exit(1)
	}
	testCluster = c
	select {
	case <-h.ready:
	case <-time.After(30 * time.Second):
		fmt.Fprintln(os.Stderr, "the controller's informers never synced")
		c.Stop()
		os.Exit(1)
	}
	code := m.Run()
	c.Stop()
	os.Exit(code)
}

// tickingClock is a clock that is one second later every time it is read.
type tickingClock struct {
	start time.Time
	reads atomic.Int64
}

func (c *tickingClock) Now() time.Time {
	return c.start.Add(time.Duration(c.reads.Add(1)) * time.Second)
}
func (c *tickingClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }
func (c *tickingClock) NewTimer(d time.Duration) workqueue.Timer {
	return workqueue.RealClock{}.NewTimer(d)
}

type harness struct {
	ready chan struct{}
	ctrl  *Controller

	mu sync.Mutex
	// writes counts, by namespace, the status PUTs the apiserver accepted
	// (2xx); attempts counts them all. A write from a cache that trails the
	// reconciler's own last write carries an old resourceVersion and is
	// refused with 409 Conflict: that one costs a request, but no write.
	writes, attempts map[string]int
	// seen is, by key, the highest resourceVersion of the cached Deployment
	// that a finished sync started from.
	seen     map[string]int64
	problems map[string][]string
}

func newHarness() *harness {
	return &harness{ready: make(chan struct{}), writes: map[string]int{}, attempts: map[string]int{},
		seen: map[string]int64{}, problems: map[string][]string{}}
}

func (h *harness) runController(ctx context.Context, c *cluster.Cluster) error {
	cfg := c.Config.ForComponent("deployment-status")
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { return &countingTransport{base: rt, h: h} }
	cl, err := client.NewForConfig(cfg)
	if err != nil {
		return err
	}
	factory := informers.NewClientInformerFactory(cl, 0, nil)
	ctrl, err := NewController(cl, informers.For[*api.Deployment](factory), informers.For[*api.Pod](factory),
		Options{Clock: &tickingClock{start: time.Now()}})
	if err != nil {
		return err
	}
	ctrl.syncHandler = h.observe(ctrl, ctrl.syncHandler)
	h.ctrl = ctrl
	factory.Start(ctx)
	defer factory.Shutdown()
	factory.WaitForCacheSync(ctx)
	close(h.ready)
	ctrl.Run(ctx, 2)
	return nil
}

// observe wraps the reconcile: it records which version of the Deployment
// each sync read, and compares the cached object before and after (a
// change is a reconcile writing into the shared cache; the snapshot is put
// back, so the next reconcile sees what the server sent).
func (h *harness) observe(ctrl *Controller, inner func(context.Context, string) error) func(context.Context, string) error {
	return func(ctx context.Context, key string) (err error) {
		ns, name, _ := api.SplitMetaNamespaceKey(key)
		cached, getErr := ctrl.dLister.Namespace(ns).Get(name)
		var before *api.Deployment
		var rv int64
		if getErr == nil {
			before = cached.DeepCopy()
			rv, _ = strconv.ParseInt(cached.ResourceVersion, 10, 64)
		}
		defer func() {
			if r := recover(); r != nil {
				h.problem(ns, fmt.Sprintf("syncDeployment(%q) panicked: %v", key, r))
				err = fmt.Errorf("panic: %v", r)
			}
			if before != nil && !reflect.DeepEqual(before, cached) {
				h.problem(ns, fmt.Sprintf("syncDeployment(%q) changed the Deployment the lister returned; "+
					"objects from an informer's cache are shared and read-only: DeepCopy before changing one", key))
				*cached = *before
			}
			if errors.Is(err, ErrNotImplemented) {
				h.problem(ns, "syncDeployment is not written yet: the stub in status.go returns ErrNotImplemented")
			}
			h.mu.Lock()
			h.seen[key] = max(h.seen[key], rv)
			h.mu.Unlock()
		}()
		return inner(ctx, key)
	}
}

func (h *harness) problem(ns, p string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, seen := range h.problems[ns] {
		if seen == p {
			return
		}
	}
	h.problems[ns] = append(h.problems[ns], p)
}

func (h *harness) problemsIn(ns string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.problems[ns]...)
}

func (h *harness) writesIn(ns string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.writes[ns]
}

// countingTransport counts PUT /apis/apps/v1/namespaces/NS/deployments/NAME/status.
type countingTransport struct {
	base http.RoundTripper
	h    *harness
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	ns := statusWriteNamespace(r)
	resp, err := t.base.RoundTrip(r)
	if ns == "" {
		return resp, err
	}
	t.h.mu.Lock()
	t.h.attempts[ns]++
	n := t.h.attempts[ns]
	if err == nil && resp.StatusCode/100 == 2 {
		t.h.writes[ns]++
	}
	t.h.mu.Unlock()
	if n > maxWrites {
		t.h.problem(ns, fmt.Sprintf("%d status writes in one test: a hot loop. Each write is an event that wakes "+
			"the reconciler again; it must compute the same status from the same world and then write nothing", n))
	}
	return resp, err
}

func statusWriteNamespace(r *http.Request) string {
	if r.Method != http.MethodPut {
		return ""
	}
	parts := strings.Split(r.URL.Path, "/")
	for i := 0; i+4 < len(parts); i++ {
		if parts[i] == "namespaces" && parts[i+2] == "deployments" && parts[i+4] == "status" {
			return parts[i+1]
		}
	}
	return ""
}

// newNamespace creates a namespace; when the test ends it fails the test
// for every problem the harness found in it.
func newNamespace(t *testing.T) string {
	t.Helper()
	name := strings.ToLower(strings.TrimPrefix(t.Name(), "Test"))
	if len(name) > 40 {
		name = name[:40]
	}
	name = fmt.Sprintf("%s-%d", name, time.Now().UnixNano()%100000)
	if _, err := client.For[*api.Namespace](testCluster.Client).Create(context.Background(),
		&api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}, client.CreateOptions{}); err != nil {
		t.Fatalf("create namespace %s: %v", name, err)
	}
	t.Cleanup(func() {
		for _, p := range h.problemsIn(name) {
			t.Error(p)
		}
	})
	return name
}

// waitUntil polls cond until it holds. It gives up at once if the harness
// found a problem in ns, and after waitFor otherwise.
func waitUntil(t *testing.T, ns, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		if p := h.problemsIn(ns); len(p) > 0 {
			t.Fatalf("while waiting until %s:\n  %s", what, strings.Join(p, "\n  "))
		}
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %v, but never %s", waitFor, what)
		}
		time.Sleep(tick)
	}
}
