package namespace

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
	"kubeloop/informers"
)

// testCluster is an API-only cluster: no controller manager, so nothing
// but the controller a test starts empties namespaces.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{}, func(c *cluster.Cluster) { testCluster = c })
}

const (
	waitFor = 45 * time.Second
	tick    = 50 * time.Millisecond
	// grace stands in for the 5 s namespaceDeletionGracePeriod.
	grace = 100 * time.Millisecond
)

// startController runs a namespace controller with its own informers,
// talking to baseURL (the cluster's apiserver, or a proxy in front of it),
// until the test ends.
func startController(t *testing.T, baseURL string) {
	t.Helper()
	startControllerWith(t, baseURL, Options{})
}

func startControllerWith(t *testing.T, baseURL string, opts Options) {
	t.Helper()
	cfg := testCluster.Config.ForComponent("namespace-controller-test")
	cfg.Host = baseURL
	c, err := client.NewForConfig(cfg)
	require.NoError(t, err)
	factory := informers.NewClientInformerFactory(c, 0, nil)
	opts.DeletionGracePeriod = grace
	if opts.DiscoverResources == nil {
		opts.DiscoverResources = c.ServerPreferredNamespacedResources
	}
	ctrl := NewController(c, informers.For[*api.Namespace](factory), opts)
	t.Cleanup(factory.Shutdown)
	clustertest.Go(t, func(ctx context.Context) {
		factory.Start(ctx)
		ctrl.Run(ctx, 2)
	})
}

// faultyProxy forwards to the cluster's apiserver, except the requests
// fail answers with 503 while it is on.
type faultyProxy struct {
	URL   string
	mu    sync.Mutex
	fails func(*http.Request) bool
}

func startFaultyProxy(t *testing.T, fails func(*http.Request) bool) *faultyProxy {
	t.Helper()
	target, err := url.Parse(testCluster.URL)
	require.NoError(t, err)
	forward := httputil.NewSingleHostReverseProxy(target)
	// The proxy presents the admin's credentials upstream: the controller's
	// own certificate ends at the proxy.
	hc, err := client.HTTPClientFor(testCluster.Config)
	require.NoError(t, err)
	forward.Transport = hc.Transport
	p := &faultyProxy{fails: fails}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		fail := p.fails != nil && p.fails(r)
		p.mu.Unlock()
		if fail {
			http.Error(w, "injected failure", http.StatusServiceUnavailable)
			return
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// heal lets every request through from now on.
func (p *faultyProxy) heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fails = nil
}

func namespaces() *client.Resource[*api.Namespace] {
	return client.For[*api.Namespace](testCluster.Client)
}

func deleteNamespace(t *testing.T, ns string) {
	t.Helper()
	require.NoError(t, namespaces().Delete(clustertest.Context(t), ns, api.DeleteOptions{}))
}

// waitGone waits until the namespace no longer exists.
func waitGone(t *testing.T, ns string) {
	t.Helper()
	require.Eventually(t, func() bool {
		_, err := namespaces().Get(clustertest.Context(t), ns, client.GetOptions{})
		return api.IsNotFound(err)
	}, waitFor, tick, "namespace %s is never removed", ns)
}

// waitCondition waits until the namespace shows the condition with that
// status, reason and message, and returns the namespace.
func waitCondition(t *testing.T, ns string, want api.NamespaceCondition) *api.Namespace {
	t.Helper()
	var last *api.Namespace
	ok := assertEventually(func() bool {
		n, err := namespaces().Get(clustertest.Context(t), ns, client.GetOptions{})
		if err != nil {
			return false
		}
		last = n
		c := getCondition(n.Status.Conditions, want.Type)
		return c != nil && c.Status == want.Status && c.Reason == want.Reason && c.Message == want.Message
	})
	if !ok {
		var got any
		if last != nil {
			got = last.Status.Conditions
		}
		t.Fatalf("namespace %s never had %+v; last conditions %+v", ns, want, got)
	}
	return last
}

func assertEventually(cond func() bool) bool {
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(tick)
	}
	return cond()
}

func condition(t api.NamespaceConditionType, status api.ConditionStatus, reason, message string) api.NamespaceCondition {
	return api.NamespaceCondition{Type: t, Status: status, Reason: reason, Message: message}
}
