//go:build exercise || solution

package labeler

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/informers"
)

// The grader runs your controller once, as a component of one real cluster
// (embedded etcd + apiserver on 127.0.0.1), and every test works in a
// namespace of its own. The harness watches the controller from outside:
// it counts the controller's HTTP requests per namespace and wraps its
// syncHandler to catch panics, changes to cached objects and the stub's
// ErrNotImplemented, so that each of those is a test failure that names
// the problem rather than a crash or a 20-second timeout.

// testCluster and h are set once by TestMain, before any test runs.
var (
	testCluster *cluster.Cluster
	h           *harness
)

const (
	waitTimeout  = 20 * time.Second
	pollInterval = 10 * time.Millisecond
)

func TestMain(m *testing.M) {
	// Every informer created from now on keeps a private copy of each cached
	// object and panics when the cached one changes. The harness usually
	// catches such a change first (right after the reconcile returns) and
	// reports it as a test failure; if the detector wins the race, the test
	// binary stops with "panic: cache configmaps modified object", which go
	// test reports as FAIL too.
	os.Setenv("KUBELOOP_CACHE_MUTATION_DETECTOR", "true")
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
		Components: cluster.Components{Extra: []cluster.Component{{Name: "configmap-labeler", Run: h.runController}}},
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
		fmt.Fprintln(os.Stderr, "the controller's informer never synced")
		c.Stop()
		os.Exit(1)
	}
	code := m.Run()
	c.Stop()
	os.Exit(code)
}

// harness is what the grader observes of the running controller.
type harness struct {
	// ready is closed once ctrl is set and its cache has synced.
	ready chan struct{}
	ctrl  *Controller

	mu sync.Mutex
	// requests counts the controller's requests on ConfigMaps, by
	// namespace, then by HTTP method. The informer's list and watch span
	// all namespaces and are not counted: what is left is the reconcile's.
	requests map[string]map[string]int
	// syncs counts finished reconciles by key; lastErr keeps the last error.
	syncs   map[string]int
	lastErr map[string]error
	// problems are failures found by the harness, by namespace; the first
	// reported[ns] of them have already failed the test.
	problems map[string][]string
	reported map[string]int
	// inflight counts the reconciles of each namespace that have started
	// and not yet been checked: a test's write can be visible before the
	// check of the reconcile that made it has run.
	inflight map[string]int
}

func newHarness() *harness {
	return &harness{
		ready:    make(chan struct{}),
		requests: map[string]map[string]int{},
		syncs:    map[string]int{},
		lastErr:  map[string]error{},
		problems: map[string][]string{},
		reported: map[string]int{},
		inflight: map[string]int{},
	}
}

// runController is the cluster component: the student's controller with a
// counting transport, its own informer factory and two workers.
func (h *harness) runController(ctx context.Context, c *cluster.Cluster) error {
	cfg := c.Config.ForComponent("configmap-labeler")
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { return &countingTransport{base: rt, h: h} }
	cl, err := client.NewForConfig(cfg)
	if err != nil {
		return err
	}
	factory := informers.NewClientInformerFactory(cl, 0, nil)
	ctrl, err := NewController(cl, informers.For[*api.ConfigMap](factory))
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

// observe wraps the reconcile. It snapshots the cached object before the
// call and compares after it; a difference means the reconcile wrote into
// the shared cache. The harness then puts the snapshot back, so that the
// informer's own detector does not crash the whole test binary over a
// failure already reported.
func (h *harness) observe(ctrl *Controller, inner func(context.Context, string) error) func(context.Context, string) error {
	return func(ctx context.Context, key string) (err error) {
		ns, name, _ := api.SplitMetaNamespaceKey(key)
		h.started(ns)
		cached, getErr := ctrl.cmLister.Namespace(ns).Get(name)
		var before *api.ConfigMap
		if getErr == nil {
			before = cached.DeepCopy()
		}
		defer func() {
			if r := recover(); r != nil {
				h.problem(ns, fmt.Sprintf("syncConfigMap(%q) panicked: %v", key, r))
				err = fmt.Errorf("panic: %v", r)
			}
			if before != nil && !reflect.DeepEqual(before, cached) {
				h.problem(ns, fmt.Sprintf("syncConfigMap(%q) changed the ConfigMap the lister returned; "+
					"objects from an informer's cache are shared and read-only: DeepCopy before changing one", key))
				*cached = *before
			}
			if errors.Is(err, ErrNotImplemented) {
				h.problem(ns, "syncConfigMap is not written yet: the stub in sync.go returns ErrNotImplemented")
			}
			h.finished(key, err)
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

// unreported returns the problems in ns not yet reported, and marks them
// reported.
func (h *harness) unreported(ns string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	fresh := append([]string(nil), h.problems[ns][h.reported[ns]:]...)
	h.reported[ns] = len(h.problems[ns])
	return fresh
}

func (h *harness) started(ns string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.inflight[ns]++
}

// finished counts a reconcile whose checks have all run.
func (h *harness) finished(key string, err error) {
	ns, _, _ := api.SplitMetaNamespaceKey(key)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.syncs[key]++
	h.lastErr[key] = err
	h.inflight[ns]--
}

func (h *harness) inflightIn(ns string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.inflight[ns]
}

func (h *harness) syncsOf(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.syncs[key]
}

// lastErrors describes the last error of every key in ns, for messages.
func (h *harness) lastErrors(ns string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var lines []string
	for key, err := range h.lastErr {
		if err != nil && strings.HasPrefix(key, ns+"/") {
			lines = append(lines, fmt.Sprintf("%s: %v", key, err))
		}
	}
	sort.Strings(lines)
	if len(lines) == 0 {
		return "no reconcile of this namespace returned an error"
	}
	return "last errors: " + strings.Join(lines, "; ")
}

// writes counts the controller's writes to ConfigMaps in ns.
func (h *harness) writes(ns string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for method, count := range h.requests[ns] {
		if method != http.MethodGet {
			n += count
		}
	}
	return n
}

// reads counts the controller's GETs of single ConfigMaps in ns.
func (h *harness) reads(ns string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.requests[ns][http.MethodGet]
}

// countingTransport records every request on /namespaces/<ns>/configmaps.
type countingTransport struct {
	base http.RoundTripper
	h    *harness
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	parts := strings.Split(r.URL.Path, "/")
	for i := 0; i+2 < len(parts); i++ {
		if parts[i] == "namespaces" && parts[i+2] == "configmaps" {
			t.h.mu.Lock()
			ns := parts[i+1]
			if t.h.requests[ns] == nil {
				t.h.requests[ns] = map[string]int{}
			}
			t.h.requests[ns][r.Method]++
			t.h.mu.Unlock()
			break
		}
	}
	return t.base.RoundTrip(r)
}

// newNamespace creates a namespace for the test; when the test ends it
// fails the test for every problem the harness found in it.
func newNamespace(t *testing.T) string {
	t.Helper()
	name := strings.ToLower(strings.TrimPrefix(t.Name(), "Test"))
	if len(name) > 40 {
		name = name[:40]
	}
	name = fmt.Sprintf("%s-%d", name, time.Now().UnixNano()%100000)
	_, err := client.For[*api.Namespace](testCluster.Client).Create(context.Background(),
		&api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}, client.CreateOptions{})
	if err != nil {
		t.Fatalf("create namespace %s: %v", name, err)
	}
	t.Cleanup(func() {
		// A reconcile still running may yet find a problem: wait for it.
		deadline := time.Now().Add(waitTimeout)
		for h.inflightIn(name) > 0 && time.Now().Before(deadline) {
			time.Sleep(pollInterval)
		}
		for _, p := range h.unreported(name) {
			t.Error(p)
		}
	})
	return name
}

// waitUntil polls cond until it holds. It gives up at once if the harness
// has found a problem in ns (a panic, a cache mutation, the stub), and after
// waitTimeout otherwise, saying what it waited for.
func waitUntil(t *testing.T, ns, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		if p := h.unreported(ns); len(p) > 0 {
			t.Fatalf("while waiting until %s:\n  %s", what, strings.Join(p, "\n  "))
		}
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %v, but never %s (%s)", waitTimeout, what, h.lastErrors(ns))
		}
		time.Sleep(pollInterval)
	}
}
