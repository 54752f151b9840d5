package replicaset

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/cluster/clustertest"
	"kubeloop/informers"
	"kubeloop/reflector"
)

// namespaceFactory is an informer factory narrowed to one namespace; wrap,
// if set, decorates each resource's ListerWatcher.
func namespaceFactory(cl *client.Client, ns string, wrap func(reflector.ListerWatcher) reflector.ListerWatcher) *informers.SharedInformerFactory {
	return informers.NewSharedInformerFactory(func(info *api.ResourceInfo) reflector.ListerWatcher {
		var lw reflector.ListerWatcher = client.NewListWatch(cl, info, ns)
		if wrap != nil {
			lw = wrap(lw)
		}
		return lw
	}, 0)
}

// startController builds a controller of the test's own over the given
// informers; runController runs it until the test ends.
func startController(t *testing.T, cl *client.Client, rsFactory, podFactory *informers.SharedInformerFactory) *Controller {
	t.Helper()
	return NewController(cl, informers.For[*api.ReplicaSet](rsFactory), informers.For[*api.Pod](podFactory), &record.FakeRecorder{}, Options{})
}

func runController(t *testing.T, rsc *Controller, factories ...*informers.SharedInformerFactory) {
	t.Helper()
	// Cleanups run last-registered first: the controller stops before its
	// informers shut down.
	for _, f := range factories {
		t.Cleanup(f.Shutdown)
	}
	clustertest.Go(t, func(ctx context.Context) {
		for _, f := range factories {
			f.Start(ctx)
		}
		rsc.Run(ctx, 5)
	})
}

// isolatedReplicaSet is newReplicaSet that the shared controller ignores:
// the ReplicaSet and its pods carry isolatedLabel.
func isolatedReplicaSet(ns, name, app string, replicas int32) *api.ReplicaSet {
	rs := newReplicaSet(ns, name, app, replicas)
	rs.Labels = map[string]string{isolatedLabel: "true"}
	rs.Spec.Template.Labels[isolatedLabel] = "true"
	return rs
}

// delayedLW hands out watch events delay after they arrive, in order: the
// informer's view of pods lags the API by that much.
type delayedLW struct {
	reflector.ListerWatcher
	delay time.Duration
}

func (d delayedLW) Watch(ctx context.Context, opts api.ListOptions) (api.Watcher, error) {
	inner, err := d.ListerWatcher.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	w := &delayedWatcher{inner: inner, out: make(chan api.WatchEvent), stop: make(chan struct{})}
	go w.run(d.delay)
	return w, nil
}

type delayedWatcher struct {
	inner api.Watcher
	out   chan api.WatchEvent
	stop  chan struct{}
	once  sync.Once
}

func (w *delayedWatcher) ResultChan() <-chan api.WatchEvent { return w.out }

func (w *delayedWatcher) Stop() {
	w.once.Do(func() { close(w.stop); w.inner.Stop() })
}

func (w *delayedWatcher) run(delay time.Duration) {
	type stamped struct {
		ev  api.WatchEvent
		due time.Time
	}
	pending := make(chan stamped, 100000)
	go func() {
		defer close(pending)
		for ev := range w.inner.ResultChan() {
			select {
			case pending <- stamped{ev, time.Now().Add(delay)}:
			case <-w.stop:
				return
			}
		}
	}()
	defer close(w.out)
	for s := range pending {
		timer := time.NewTimer(time.Until(s.due))
		select {
		case <-timer.C:
		case <-w.stop:
			timer.Stop()
			return
		}
		select {
		case w.out <- s.ev:
		case <-w.stop:
			return
		}
	}
}

func TestNoCreateStormWhenThePodWatchLags(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	cl := testCluster.Client
	tracker := trackPods(t, cl, ns)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("most pods seen at once: %d", tracker.Max())
		}
	})

	rsFactory := namespaceFactory(cl, ns, nil)
	podFactory := namespaceFactory(cl, ns, func(lw reflector.ListerWatcher) reflector.ListerWatcher {
		return delayedLW{ListerWatcher: lw, delay: 2 * time.Second}
	})
	rsc := startController(t, cl, rsFactory, podFactory)
	runController(t, rsc, rsFactory, podFactory)

	createRS(t, cl, isolatedReplicaSet(ns, "web", "web", 0))
	requireConverged(t, cl, ns, "web", "app=web", 0)
	scaleTo(t, cl, ns, "web", 100)
	// Converged means the controller's own (lagging) cache shows 100: its
	// status says so. Until then every status write wakes it again, and
	// only the expectations keep those syncs from creating more pods.
	requireConverged(t, cl, ns, "web", "app=web", 100)
	assert.LessOrEqual(t, tracker.Max(), 100, "never more than 100 pods at once")
	assert.Equal(t, 100, tracker.Len())
}

// countingTransport counts the ReplicaSet status writes that go through it.
type countingTransport struct {
	base         http.RoundTripper
	statusWrites atomic.Int64
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/replicasets/") && strings.HasSuffix(r.URL.Path, "/status") {
		c.statusWrites.Add(1)
	}
	return c.base.RoundTrip(r)
}

func TestNoStatusWriteWhenNothingChanged(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	counter := &countingTransport{}
	cfg := *testCluster.Config
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { counter.base = rt; return counter }
	cl, err := client.NewForConfig(&cfg)
	require.NoError(t, err)

	factory := namespaceFactory(cl, ns, nil)
	rsc := startController(t, cl, factory, factory)
	// Record, for every finished sync, the annotation of the ReplicaSet the
	// sync started from.
	var mu sync.Mutex
	var synced []string
	inner := rsc.syncHandler
	rsc.syncHandler = func(ctx context.Context, key string) error {
		var mark string
		if rs, err := rsc.rsLister.Namespace(ns).Get("web"); err == nil {
			mark = rs.Annotations["test/mark"]
			if rs.Status.Replicas == 2 && rs.Status.ObservedGeneration == rs.Generation {
				mark += "+steady"
			}
		}
		err := inner(ctx, key)
		mu.Lock()
		synced = append(synced, mark)
		mu.Unlock()
		return err
	}
	sawSync := func(mark string) func() bool {
		return func() bool {
			mu.Lock()
			defer mu.Unlock()
			for _, m := range synced {
				if m == mark {
					return true
				}
			}
			return false
		}
	}
	runController(t, rsc, factory)

	createRS(t, cl, isolatedReplicaSet(ns, "web", "web", 2))
	requireConverged(t, cl, ns, "web", "app=web", 2)
	require.Eventually(t, sawSync("+steady"), waitFor, tick, "a sync started from the converged status")
	writes := counter.statusWrites.Load()
	require.Positive(t, writes, "the status was written while converging")
	rv := getRS(t, cl, ns, "web").ResourceVersion

	rsClient := client.For[*api.ReplicaSet](cl).Namespace(ns)
	for _, mark := range []string{"1", "2", "3"} {
		updated, err := rsClient.Patch(clustertest.Context(t), "web", client.MergePatchType,
			[]byte(`{"metadata":{"annotations":{"test/mark":"`+mark+`"}}}`), client.PatchOptions{})
		require.NoError(t, err)
		rv = updated.ResourceVersion
		require.Eventually(t, sawSync(mark+"+steady"), waitFor, tick, "the annotation wakes a sync")
	}
	assert.Equal(t, writes, counter.statusWrites.Load(), "no-op syncs write no status")
	assert.Equal(t, rv, getRS(t, cl, ns, "web").ResourceVersion, "the ReplicaSet was not written behind our back")
}
