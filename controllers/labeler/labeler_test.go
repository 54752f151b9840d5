package labeler

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/cluster/clustertest"
	"kubeloop/informers"
)

// testCluster is shared by every test of the package; tests isolate
// themselves by namespace.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	clustertest.Main(m, cluster.Options{}, func(c *cluster.Cluster) { testCluster = c })
}

const wait = 20 * time.Second

// writeCounter counts the controller's write requests (anything but GET)
// and can run a hook just before each one is sent.
type writeCounter struct {
	base        http.RoundTripper
	writes      atomic.Int64
	mu          sync.Mutex
	beforeWrite func(*http.Request)
}

func (w *writeCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodGet {
		w.mu.Lock()
		hook := w.beforeWrite
		w.mu.Unlock()
		if hook != nil {
			hook(r)
		}
		w.writes.Add(1)
	}
	return w.base.RoundTrip(r)
}

// running is a labeler started by a test, with what the test observes.
type running struct {
	ctrl    *Controller
	counter *writeCounter
	mu      sync.Mutex
	syncs   map[string]int
}

func (r *running) syncsOf(key string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.syncs[key]
}

// startLabeler runs a labeler with its own client, informer factory and a
// write-counting transport until the test ends.
func startLabeler(t *testing.T, namespaces []string, beforeWrite func(*http.Request)) *running {
	t.Helper()
	counter := &writeCounter{beforeWrite: beforeWrite}
	cfg := testCluster.Config.ForComponent("labeler-test")
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { counter.base = rt; return counter }
	c, err := client.NewForConfig(cfg)
	require.NoError(t, err)

	factory := informers.NewClientInformerFactory(c, 0, nil)
	ctrl := NewController(c, informers.For[*api.ConfigMap](factory), Options{Namespaces: namespaces})
	r := &running{ctrl: ctrl, counter: counter, syncs: map[string]int{}}
	inner := ctrl.syncHandler
	ctrl.syncHandler = func(ctx context.Context, key string) error {
		err := inner(ctx, key)
		r.mu.Lock()
		r.syncs[key]++
		r.mu.Unlock()
		return err
	}

	// Cleanups run last-registered first: the controller stops before its
	// informers shut down.
	t.Cleanup(factory.Shutdown)
	clustertest.Go(t, func(ctx context.Context) {
		factory.Start(ctx)
		ctrl.Run(ctx, 2)
	})
	return r
}

func configMaps(ns string) *client.Resource[*api.ConfigMap] {
	return client.For[*api.ConfigMap](testCluster.Client).Namespace(ns)
}

func createConfigMap(t *testing.T, ns, name string, labels map[string]string) *api.ConfigMap {
	t.Helper()
	cm, err := configMaps(ns).Create(context.Background(), &api.ConfigMap{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: labels},
		Data:       map[string]string{"greeting": "world"},
	}, client.CreateOptions{})
	require.NoError(t, err)
	return cm
}

// eventuallyLabelled waits until the server's copy carries the label.
func eventuallyLabelled(t *testing.T, ns, name string) *api.ConfigMap {
	t.Helper()
	var got *api.ConfigMap
	require.Eventually(t, func() bool {
		cm, err := configMaps(ns).Get(context.Background(), name, client.GetOptions{})
		if err != nil {
			return false
		}
		got = cm
		return cm.Labels[LabelKey] == LabelValue
	}, wait, 10*time.Millisecond, "%s/%s never got %s=%s", ns, name, LabelKey, LabelValue)
	return got
}

// setLabels replaces the labels of a ConfigMap, retrying on conflicts
// with the controller.
func setLabels(t *testing.T, ns, name string, labels map[string]string) {
	t.Helper()
	err := client.RetryOnConflict(client.DefaultRetry, func() error {
		cm, err := configMaps(ns).Get(context.Background(), name, client.GetOptions{})
		if err != nil {
			return err
		}
		cm.Labels = labels
		_, err = configMaps(ns).Update(context.Background(), cm, client.UpdateOptions{})
		return err
	})
	require.NoError(t, err)
}

// Every other test limits its labeler to its own namespaces, so that a
// labeler of one test never touches the ConfigMaps another left behind;
// this one runs with the default (all namespaces).
func TestConfigMapWithoutLabelGetsLabelled(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	startLabeler(t, nil, nil)
	createConfigMap(t, ns, "hello", map[string]string{"app": "web"})
	cm := eventuallyLabelled(t, ns, "hello")
	require.Equal(t, "web", cm.Labels["app"], "other labels are kept")
	require.Equal(t, "world", cm.Data["greeting"], "data is kept")
}

func TestRemovedLabelIsRestored(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	startLabeler(t, []string{ns}, nil)
	createConfigMap(t, ns, "hello", nil)
	eventuallyLabelled(t, ns, "hello")

	setLabels(t, ns, "hello", map[string]string{"app": "web"})
	cm := eventuallyLabelled(t, ns, "hello")
	require.Equal(t, "web", cm.Labels["app"])
}

func TestChangedLabelValueIsRestored(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	startLabeler(t, []string{ns}, nil)
	createConfigMap(t, ns, "hello", nil)
	eventuallyLabelled(t, ns, "hello")

	setLabels(t, ns, "hello", map[string]string{LabelKey: "someone-else"})
	eventuallyLabelled(t, ns, "hello")
}

func TestConfigMapOutsideConfiguredNamespacesIsLeftAlone(t *testing.T) {
	managed := clustertest.Namespace(t, testCluster)
	other := clustertest.Namespace(t, testCluster)
	r := startLabeler(t, []string{managed}, nil)

	createConfigMap(t, other, "ignored", nil)
	// The informer delivers events in resourceVersion order, so once the
	// later ConfigMap in the managed namespace has been handled, the earlier
	// one in the other namespace has been seen (and skipped) too.
	createConfigMap(t, managed, "handled", nil)
	eventuallyLabelled(t, managed, "handled")

	cm, err := configMaps(other).Get(context.Background(), "ignored", client.GetOptions{})
	require.NoError(t, err)
	require.NotContains(t, cm.Labels, LabelKey)
	require.Zero(t, r.syncsOf(other+"/ignored"), "a key outside the namespaces is never queued")
	require.EqualValues(t, 1, r.counter.writes.Load(), "only the managed ConfigMap is written")
}

func TestSecondReconcileMakesNoWrite(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	r := startLabeler(t, []string{ns}, nil)
	key := ns + "/hello"
	createConfigMap(t, ns, "hello", nil)
	labelled := eventuallyLabelled(t, ns, "hello")

	// Our own update comes back through the informer and triggers a second
	// reconcile: the pendulum swings once and settles.
	require.Eventually(t, func() bool { return r.syncsOf(key) >= 2 }, wait, 10*time.Millisecond)
	require.EqualValues(t, 1, r.counter.writes.Load(), "one write for the first pass, none for the second")

	// A forced reconcile, once the cache has our write, is a no-op too.
	require.Eventually(t, func() bool {
		cm, err := r.ctrl.cmLister.Namespace(ns).Get("hello")
		return err == nil && cm.ResourceVersion == labelled.ResourceVersion
	}, wait, 10*time.Millisecond)
	require.NoError(t, r.ctrl.syncHandler(context.Background(), key))
	require.EqualValues(t, 1, r.counter.writes.Load())
	after, err := configMaps(ns).Get(context.Background(), "hello", client.GetOptions{})
	require.NoError(t, err)
	require.Equal(t, labelled.ResourceVersion, after.ResourceVersion, "the object was not rewritten")
}

func TestConflictIsRetriedAgainstTheNewerObject(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	var once sync.Once
	// Just before the controller's first write, someone else changes the
	// ConfigMap: the controller's update carries a stale resourceVersion.
	r := startLabeler(t, []string{ns}, func(req *http.Request) {
		if req.Method != http.MethodPut {
			return
		}
		once.Do(func() {
			cm, err := configMaps(ns).Get(context.Background(), "hello", client.GetOptions{})
			if err != nil {
				return
			}
			cm.Data["greeting"] = "moon"
			_, _ = configMaps(ns).Update(context.Background(), cm, client.UpdateOptions{})
		})
	})
	createConfigMap(t, ns, "hello", nil)
	cm := eventuallyLabelled(t, ns, "hello")
	require.Equal(t, "moon", cm.Data["greeting"], "the retry wrote on top of the newer object, not over it")
	require.GreaterOrEqual(t, r.counter.writes.Load(), int64(2), "the first write conflicted")
	require.Eventually(t, func() bool { return r.syncsOf(ns+"/hello") >= 2 }, wait, 10*time.Millisecond)
}
