//go:build exercise || solution

package expectations

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/informers"
	"kubeloop/reflector"
)

// The grader runs the controller, with your expectations, as a component of
// one real cluster (embedded etcd and the apiserver on 127.0.0.1; no other
// controllers), and each test in its own namespace. The harness counts the
// controller's pod creates and deletes per namespace, counts its syncs, and
// can hold back the pod events of its informer's watch: a slow watch, as on
// a loaded apiserver, is exactly when a controller without expectations
// creates and deletes pods twice.

var (
	testCluster *cluster.Cluster
	h           *harness
)

const (
	waitFor = 20 * time.Second
	tick    = 10 * time.Millisecond
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
		Components: cluster.Components{Extra: []cluster.Component{{Name: "exercise-replicaset", Run: h.runController}}},
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

type harness struct {
	ready chan struct{}
	ctrl  *Controller
	gate  *gate

	mu sync.Mutex
	// writes counts the controller's POSTs and DELETEs of pods, by
	// namespace then method.
	writes map[string]map[string]int
	// syncs counts finished syncs by key.
	syncs    map[string]int
	problems []string
}

func newHarness() *harness {
	return &harness{ready: make(chan struct{}), gate: newGate(), writes: map[string]map[string]int{}, syncs: map[string]int{}}
}

func (h *harness) runController(ctx context.Context, c *cluster.Cluster) error {
	cfg := c.Config.ForComponent("exercise-replicaset")
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { return &countingTransport{base: rt, h: h} }
	cl, err := client.NewForConfig(cfg)
	if err != nil {
		return err
	}
	// The controller's informers, with the pod watch behind the gate.
	factory := informers.NewSharedInformerFactory(func(info *api.ResourceInfo) reflector.ListerWatcher {
		lw := client.NewListWatch(cl, info, "")
		if info.Resource == "pods" {
			return &gatedListWatch{ListWatch: lw, gate: h.gate}
		}
		return lw
	}, 0)
	ctrl, err := NewController(cl, informers.For[*api.ReplicaSet](factory), informers.For[*api.Pod](factory), Options{})
	if err != nil {
		return err
	}
	inner := ctrl.syncHandler
	ctrl.syncHandler = func(ctx context.Context, key string) (err error) {
		defer func() {
			if r := recover(); r != nil {
				h.problem(fmt.Sprintf("a sync of %s panicked: %v", key, r))
				err = fmt.Errorf("panic: %v", r)
			}
			h.mu.Lock()
			h.syncs[key]++
			h.mu.Unlock()
		}()
		return inner(ctx, key)
	}
	h.ctrl = ctrl
	factory.Start(ctx)
	defer factory.Shutdown()
	factory.WaitForCacheSync(ctx)
	close(h.ready)
	ctrl.Run(ctx, 2)
	return nil
}

func (h *harness) problem(p string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.problems = append(h.problems, p)
}

func (h *harness) count(ns, method string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.writes[ns][method]
}

func (h *harness) syncsOf(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.syncs[key]
}

// countingTransport counts POST and DELETE on /namespaces/<ns>/pods.
type countingTransport struct {
	base http.RoundTripper
	h    *harness
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	parts := strings.Split(r.URL.Path, "/")
	for i := 0; i+2 < len(parts); i++ {
		if parts[i] == "namespaces" && parts[i+2] == "pods" && (r.Method == http.MethodPost || r.Method == http.MethodDelete) {
			t.h.mu.Lock()
			if t.h.writes[parts[i+1]] == nil {
				t.h.writes[parts[i+1]] = map[string]int{}
			}
			t.h.writes[parts[i+1]][r.Method]++
			t.h.mu.Unlock()
			break
		}
	}
	return t.base.RoundTrip(r)
}

// gate holds watch events back while closed and lets them through, in
// order, once open.
type gate struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
}

func newGate() *gate {
	g := &gate{open: true}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *gate) set(open bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.open = open
	g.cond.Broadcast()
}

// pass waits until the gate is open or stop is closed.
func (g *gate) pass(stop <-chan struct{}) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for !g.open {
		select {
		case <-stop:
			return false
		default:
		}
		g.cond.Wait()
	}
	return true
}

// gatedListWatch lists at once and delays its watch's events at the gate.
type gatedListWatch struct {
	*client.ListWatch
	gate *gate
}

func (lw *gatedListWatch) Watch(ctx context.Context, opts api.ListOptions) (api.Watcher, error) {
	w, err := lw.ListWatch.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	out := &gatedWatcher{inner: w, gate: lw.gate, out: make(chan api.WatchEvent), stop: make(chan struct{})}
	go func() {
		defer close(out.out)
		for ev := range w.ResultChan() {
			if !lw.gate.pass(out.stop) {
				return
			}
			select {
			case out.out <- ev:
			case <-out.stop:
				return
			}
		}
	}()
	return out, nil
}

type gatedWatcher struct {
	inner api.Watcher
	gate  *gate
	out   chan api.WatchEvent
	stop  chan struct{}
	once  sync.Once
}

func (w *gatedWatcher) ResultChan() <-chan api.WatchEvent { return w.out }

func (w *gatedWatcher) Stop() {
	w.once.Do(func() {
		close(w.stop)
		w.inner.Stop()
		w.gate.mu.Lock()
		w.gate.cond.Broadcast() // wake a forwarder waiting at the closed gate
		w.gate.mu.Unlock()
	})
}

// delayPodEvents closes the gate until the test ends or releases it.
func delayPodEvents(t *testing.T) (release func()) {
	h.gate.set(false)
	t.Cleanup(func() { h.gate.set(true) })
	return func() { h.gate.set(true) }
}

// newNamespace creates a namespace for one test.
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
	return name
}

// waitUntil polls cond; it fails at once on a panic in a sync, and after
// limit saying what it waited for.
func waitUntil(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		h.mu.Lock()
		problems := append([]string(nil), h.problems...)
		h.mu.Unlock()
		if len(problems) > 0 {
			t.Fatalf("while waiting until %s:\n  %s", what, strings.Join(problems, "\n  "))
		}
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %v, but never %s", limit, what)
		}
		time.Sleep(tick)
	}
}
