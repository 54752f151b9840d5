//go:build exercise || solution

package website

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

	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/controllers/garbagecollector"
	"kubeloop/informers"
	"kubeloop/workqueue"
)

// The grader starts one real cluster (embedded etcd and the apiserver on
// 127.0.0.1), applies website-crd.yaml, and then runs your controller and
// kubeloop's real garbage collector as components, each test in a
// namespace of its own. The harness counts the controller's writes by
// kind (the Website's status, the Website itself, ConfigMaps), records
// which version of each Website every sync read, and wraps the reconcile
// to catch panics, the stub, and changes to the cached objects.
//
// The controller's clock moves one second every time it is read, so a
// reconcile that stamps a new time on every pass writes something new on
// every pass, and is caught at once: more than maxWrites write requests in
// one test's namespace is reported as a hot loop.

var (
	testCluster *cluster.Cluster
	websiteInfo *api.ResourceInfo
	h           = newHarness()
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
	code, err := run(m, logger)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

func run(m *testing.M, logger *slog.Logger) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := cluster.Start(ctx, cluster.Options{Logger: logger})
	if err != nil {
		return 1, fmt.Errorf("start cluster: %w", err)
	}
	defer c.Stop()
	testCluster = c
	if websiteInfo, err = applyCRD(ctx, c.Client); err != nil {
		return 1, err
	}
	// Started once the kind is served, so the garbage collector's first
	// discovery finds it and watches Websites from the start.
	c.StartComponent(cluster.Component{Name: "garbage-collector", Run: runGarbageCollector})
	c.StartComponent(cluster.Component{Name: "website", Run: h.runController})
	select {
	case <-h.ready:
	case <-ctx.Done():
		return 1, errors.New("the controller's informers never synced")
	}
	return m.Run(), nil
}

// applyCRD creates the Website CRD and waits until discovery serves it.
func applyCRD(ctx context.Context, c *client.Client) (*api.ResourceInfo, error) {
	manifest, err := os.ReadFile("website-crd.yaml")
	if err != nil {
		return nil, err
	}
	crd := &api.CustomResourceDefinition{}
	if err := yaml.Unmarshal(manifest, crd); err != nil {
		return nil, fmt.Errorf("website-crd.yaml: %w", err)
	}
	if _, err := client.For[*api.CustomResourceDefinition](c).Create(ctx, crd, client.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("create the Website CRD: %w", err)
	}
	for {
		info, err := c.DiscoverResource(ctx, Group, Version, Resource)
		if err == nil {
			return info, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the Website CRD is never served: %w", err)
		case <-time.After(tick):
		}
	}
}

func runGarbageCollector(ctx context.Context, c *cluster.Cluster) error {
	cl, err := c.NewClient("garbage-collector")
	if err != nil {
		return err
	}
	factory := informers.NewClientInformerFactory(cl, 0, nil)
	gc := garbagecollector.NewController(cl, factory, garbagecollector.Options{DiscoveryPeriod: 200 * time.Millisecond})
	factory.Start(ctx)
	defer factory.Shutdown()
	gc.Run(ctx, 2)
	return nil
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

// The kinds of write the harness tells apart.
const (
	writeStatus    = "status"     // PUT or PATCH .../websites/NAME/status
	writeWebsite   = "website"    // any other write to a Website
	writeConfigMap = "configmaps" // POST, PUT, PATCH or DELETE of a ConfigMap
)

type harness struct {
	ready chan struct{}
	ctrl  *Controller

	mu sync.Mutex
	// accepted counts, by namespace and kind of write, the writes the
	// apiserver accepted (2xx); attempts counts every write request.
	accepted, attempts map[string]map[string]int
	// seen is, by key, the highest resourceVersion of the cached Website
	// that a finished sync started from.
	seen     map[string]int64
	problems map[string][]string
}

func newHarness() *harness {
	return &harness{ready: make(chan struct{}), accepted: map[string]map[string]int{}, attempts: map[string]map[string]int{},
		seen: map[string]int64{}, problems: map[string][]string{}}
}

func (h *harness) runController(ctx context.Context, c *cluster.Cluster) error {
	cfg := c.Config.ForComponent("website")
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { return &countingTransport{base: rt, h: h} }
	cl, err := client.NewForConfig(cfg)
	if err != nil {
		return err
	}
	factory := informers.NewClientInformerFactory(cl, 0, nil)
	ctrl, err := NewController(cl, websiteInfo, factory, Options{Clock: &tickingClock{start: time.Now()}})
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

// observe wraps the reconcile: it records which version of the Website
// each sync read, and compares the cached Website and ConfigMap before and
// after (a change is a reconcile writing into the shared cache; the
// snapshot is put back, so the next reconcile sees what the server sent).
func (h *harness) observe(ctrl *Controller, inner func(context.Context, string) error) func(context.Context, string) error {
	return func(ctx context.Context, key string) (err error) {
		ns, name, _ := api.SplitMetaNamespaceKey(key)
		var rv int64
		site, siteErr := ctrl.siteLister.Namespace(ns).Get(name)
		var siteBefore *api.Unstructured
		if siteErr == nil {
			siteBefore = site.DeepCopy()
			rv, _ = strconv.ParseInt(site.ResourceVersion, 10, 64)
		}
		cm, cmErr := ctrl.cmLister.Namespace(ns).Get(name + "-html")
		var cmBefore *api.ConfigMap
		if cmErr == nil {
			cmBefore = cm.DeepCopy()
		}
		defer func() {
			if r := recover(); r != nil {
				h.problem(ns, fmt.Sprintf("syncWebsite(%q) panicked: %v", key, r))
				err = fmt.Errorf("panic: %v", r)
			}
			if siteBefore != nil && !reflect.DeepEqual(siteBefore, site) {
				h.problem(ns, fmt.Sprintf("syncWebsite(%q) changed the Website the lister returned; objects from an "+
					"informer's cache are shared and read-only: work on a DeepCopy (withStatus makes one)", key))
				*site = *siteBefore
			}
			if cmBefore != nil && !reflect.DeepEqual(cmBefore, cm) {
				h.problem(ns, fmt.Sprintf("syncWebsite(%q) changed the ConfigMap the lister returned: DeepCopy it first", key))
				*cm = *cmBefore
			}
			if errors.Is(err, ErrNotImplemented) {
				h.problem(ns, "syncWebsite is not written yet: the stub in sync.go returns ErrNotImplemented")
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

// writes returns, for ns, the accepted writes and the attempts of kind.
func (h *harness) writes(ns, kind string) (accepted, attempts int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.accepted[ns][kind], h.attempts[ns][kind]
}

// allAttempts counts every write request the controller made in ns.
func (h *harness) allAttempts(ns string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, c := range h.attempts[ns] {
		n += c
	}
	return n
}

func (h *harness) syncedAt(key string, rv int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seen[key] >= rv
}

// countingTransport counts the controller's writes by namespace and kind.
type countingTransport struct {
	base http.RoundTripper
	h    *harness
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	ns, kind := classifyWrite(r)
	resp, err := t.base.RoundTrip(r)
	if kind == "" {
		return resp, err
	}
	t.h.mu.Lock()
	for _, m := range []map[string]map[string]int{t.h.accepted, t.h.attempts} {
		if m[ns] == nil {
			m[ns] = map[string]int{}
		}
	}
	t.h.attempts[ns][kind]++
	if err == nil && resp.StatusCode/100 == 2 {
		t.h.accepted[ns][kind]++
	}
	n := 0
	for _, c := range t.h.attempts[ns] {
		n += c
	}
	t.h.mu.Unlock()
	if n > maxWrites {
		t.h.problem(ns, fmt.Sprintf("%d write requests in one test: a hot loop. Each write is an event that wakes "+
			"the reconcile again; it must compute the same status from the same world and then write nothing", n))
	}
	return resp, err
}

// classifyWrite names the namespace and kind of a write request, or ""
// for a read.
func classifyWrite(r *http.Request) (ns, kind string) {
	if r.Method == http.MethodGet {
		return "", ""
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	for i := 0; i+2 < len(parts); i++ {
		if parts[i] != "namespaces" {
			continue
		}
		ns = parts[i+1]
		switch parts[i+2] {
		case Resource:
			if len(parts) > i+4 && parts[i+4] == "status" {
				return ns, writeStatus
			}
			return ns, writeWebsite
		case "configmaps":
			return ns, writeConfigMap
		}
	}
	return "", ""
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
