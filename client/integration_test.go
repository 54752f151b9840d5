package client_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
	"kubeloop/apiserver"
	"kubeloop/client"
	"kubeloop/store"
	"kubeloop/store/storetest"
)

// One etcd for the package; each test gets its own apiserver and namespace.
var etcd *store.Embedded

func TestMain(m *testing.M) {
	storetest.Main(m, func(e *store.Embedded) { etcd = e })
}

// startServer runs a real apiserver over HTTP on 127.0.0.1 and returns a
// client for it, and a fresh namespace.
func startServer(t *testing.T) (*client.Client, string) {
	t.Helper()
	srv, err := apiserver.New(apiserver.Config{Etcd: etcdClient(t), Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(srv.Close)
	c, err := client.NewForConfig(&client.Config{Host: ts.URL, UserAgent: "kubeloop/client-test", Timeout: 30 * time.Second})
	require.NoError(t, err)
	ns := fmt.Sprintf("t%d", time.Now().UnixNano())
	_, err = client.For[*api.Namespace](c).Create(ctx(t), &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}, client.CreateOptions{})
	require.NoError(t, err)
	return c, ns
}

// etcdClient is an etcd client of the test's own, over gRPC on 127.0.0.1,
// closed when the test ends. The in-process client every apiserver of the
// package would otherwise share multiplexes all their watches on one
// stream, and the burst of cancelled watches when an apiserver stops can
// deadlock that stream (etcd's in-process adapter has no buffer between
// its send and receive loops), hanging every apiserver after it.
func etcdClient(t *testing.T) *clientv3.Client {
	t.Helper()
	cli, err := store.NewClient(etcd.Endpoints())
	require.NoError(t, err)
	t.Cleanup(func() { _ = cli.Close() })
	return cli
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func pod(name string, labels map[string]string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: labels},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	}
}

func replicaSet(name string, replicas int32) *api.ReplicaSet {
	labels := map[string]string{"app": name}
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
			},
		},
	}
}

// crud runs create, get, list, update, delete, get-after-delete for one kind.
func crud[T api.Object](t *testing.T, r *client.Resource[T], obj T, mutate func(T)) {
	t.Helper()
	c := ctx(t)
	name := obj.GetObjectMeta().Name
	created, err := r.Create(c, obj, client.CreateOptions{FieldManager: "test"})
	require.NoError(t, err)
	require.NotEmpty(t, created.GetObjectMeta().UID)
	require.NotEmpty(t, created.GetObjectMeta().ResourceVersion)

	_, err = r.Create(c, obj, client.CreateOptions{})
	require.True(t, api.IsAlreadyExists(err), "second create: %v", err)

	got, err := r.Get(c, name, client.GetOptions{})
	require.NoError(t, err)
	require.Equal(t, created.GetObjectMeta().UID, got.GetObjectMeta().UID)

	list, err := r.List(c, client.ListOptions{FieldSelector: "metadata.name=" + name})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	require.NotEmpty(t, list.ResourceVersion)

	stale := got.DeepCopyObject().(T)
	mutate(got)
	updated, err := r.Update(c, got, client.UpdateOptions{})
	require.NoError(t, err)
	require.NotEqual(t, created.GetObjectMeta().ResourceVersion, updated.GetObjectMeta().ResourceVersion)

	mutate(stale)
	stale.GetObjectMeta().Labels = map[string]string{"stale": "yes"}
	_, err = r.Update(c, stale, client.UpdateOptions{})
	require.True(t, api.IsConflict(err), "update with a stale resourceVersion: %v", err)

	require.NoError(t, r.Delete(c, name, api.DeleteOptions{}))
	_, err = r.Get(c, name, client.GetOptions{})
	require.True(t, api.IsNotFound(err), "get after delete: %v", err)
	err = r.Delete(c, name, api.DeleteOptions{})
	require.True(t, api.IsNotFound(err), "delete twice: %v", err)
}

func TestCRUDOfEveryKind(t *testing.T) {
	c, ns := startServer(t)
	relabel := func(o api.Object) { o.GetObjectMeta().Labels = map[string]string{"updated": "true"} }

	t.Run("Pod", func(t *testing.T) {
		crud(t, client.For[*api.Pod](c).Namespace(ns), pod("p1", nil), func(p *api.Pod) { relabel(p) })
	})
	t.Run("ConfigMap", func(t *testing.T) {
		crud(t, client.For[*api.ConfigMap](c).Namespace(ns),
			&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm1"}, Data: map[string]string{"k": "v"}},
			func(cm *api.ConfigMap) { cm.Data = map[string]string{"k": "v2"} })
	})
	t.Run("ReplicaSet", func(t *testing.T) {
		crud(t, client.For[*api.ReplicaSet](c).Namespace(ns), replicaSet("rs1", 2),
			func(rs *api.ReplicaSet) { n := int32(3); rs.Spec.Replicas = &n })
	})
	t.Run("Event", func(t *testing.T) {
		crud(t, client.For[*api.Event](c).Namespace(ns),
			&api.Event{ObjectMeta: api.ObjectMeta{Name: "ev1"}, Reason: "Test", Message: "hello",
				InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: ns, Name: "p1"}},
			func(e *api.Event) { e.Count = 2 })
	})
	t.Run("Lease", func(t *testing.T) {
		holder, d := "me", int32(15)
		crud(t, client.For[*api.Lease](c).Namespace(ns),
			&api.Lease{ObjectMeta: api.ObjectMeta{Name: "l1"}, Spec: api.LeaseSpec{HolderIdentity: &holder, LeaseDurationSeconds: &d}},
			func(l *api.Lease) { other := "you"; l.Spec.HolderIdentity = &other })
	})
	t.Run("Node", func(t *testing.T) {
		crud(t, client.For[*api.Node](c), &api.Node{ObjectMeta: api.ObjectMeta{Name: ns + "-node"}},
			func(n *api.Node) { n.Spec.Unschedulable = true })
	})
	t.Run("Namespace", func(t *testing.T) {
		nsr := client.For[*api.Namespace](c)
		other := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns + "-x"}}
		created, err := nsr.Create(ctx(t), other, client.CreateOptions{})
		require.NoError(t, err)
		relabel(created)
		_, err = nsr.Update(ctx(t), created, client.UpdateOptions{})
		require.NoError(t, err)
		require.NoError(t, nsr.Delete(ctx(t), other.Name, api.DeleteOptions{}))
		// Namespaces are finalized asynchronously: gone, or Terminating.
		got, err := nsr.Get(ctx(t), other.Name, client.GetOptions{})
		if err == nil {
			assert.NotNil(t, got.DeletionTimestamp)
		} else {
			assert.True(t, api.IsNotFound(err), "%v", err)
		}
	})
}

func TestUpdateStatusAndPatch(t *testing.T) {
	c, ns := startServer(t)
	pods := client.For[*api.Pod](c).Namespace(ns)
	p, err := pods.Create(ctx(t), pod("p", nil), client.CreateOptions{})
	require.NoError(t, err)

	p.Status.Phase = api.PodRunning
	out, err := pods.UpdateStatus(ctx(t), p, client.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, api.PodRunning, out.Status.Phase)

	out, err = pods.Patch(ctx(t), "p", client.MergePatchType, []byte(`{"metadata":{"labels":{"a":"b"}}}`), client.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, "b", out.Labels["a"])
	assert.Equal(t, api.PodRunning, out.Status.Phase)

	out, err = pods.Patch(ctx(t), "p", client.JSONPatchType, []byte(`[{"op":"add","path":"/metadata/labels/c","value":"d"}]`), client.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"a": "b", "c": "d"}, out.Labels)

	out, err = pods.Patch(ctx(t), "p", client.MergePatchType, []byte(`{"status":{"phase":"Succeeded"}}`), client.PatchOptions{}, "status")
	require.NoError(t, err)
	assert.Equal(t, api.PodSucceeded, out.Status.Phase)

	_, err = pods.Patch(ctx(t), "missing", client.MergePatchType, []byte(`{}`), client.PatchOptions{})
	assert.True(t, api.IsNotFound(err), "%v", err)
}

func TestPagedListFollowsContinue(t *testing.T) {
	c, ns := startServer(t)
	cms := client.For[*api.ConfigMap](c).Namespace(ns)
	for i := 0; i < 25; i++ {
		_, err := cms.Create(ctx(t), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm-" + strconv.Itoa(i)}}, client.CreateOptions{})
		require.NoError(t, err)
	}
	first, err := cms.List(ctx(t), client.ListOptions{Limit: 10})
	require.NoError(t, err)
	require.Len(t, first.Items, 10)
	require.NotEmpty(t, first.Continue)

	seen := map[string]bool{}
	pages := 0
	opts := client.ListOptions{Limit: 10}
	for {
		page, err := cms.List(ctx(t), opts)
		require.NoError(t, err)
		pages++
		for _, cm := range page.Items {
			require.False(t, seen[cm.Name], "duplicate %s", cm.Name)
			seen[cm.Name] = true
		}
		if page.Continue == "" {
			break
		}
		opts.Continue = page.Continue
	}
	assert.Equal(t, 3, pages)
	assert.Len(t, seen, 25)

	all, rv, err := cms.ListAll(ctx(t), client.ListOptions{Limit: 7})
	require.NoError(t, err)
	assert.Len(t, all, 25)
	assert.NotEmpty(t, rv)
}

func TestListHonoursLabelSelectorAndDeleteCollection(t *testing.T) {
	c, ns := startServer(t)
	pods := client.For[*api.Pod](c).Namespace(ns)
	for i := 0; i < 6; i++ {
		tier := "web"
		if i%2 == 1 {
			tier = "db"
		}
		_, err := pods.Create(ctx(t), pod("p"+strconv.Itoa(i), map[string]string{"tier": tier}), client.CreateOptions{})
		require.NoError(t, err)
	}
	web, err := pods.List(ctx(t), client.ListOptions{LabelSelector: "tier=web"})
	require.NoError(t, err)
	assert.Len(t, web.Items, 3)

	zero := int64(0)
	require.NoError(t, pods.DeleteCollection(ctx(t), api.DeleteOptions{GracePeriodSeconds: &zero}, client.ListOptions{LabelSelector: "tier=web"}))
	require.Eventually(t, func() bool {
		l, err := pods.List(ctx(t), client.ListOptions{})
		return err == nil && len(l.Items) == 3
	}, 20*time.Second, 20*time.Millisecond)
	left, err := pods.List(ctx(t), client.ListOptions{LabelSelector: "tier=web"})
	require.NoError(t, err)
	assert.Empty(t, left.Items)
}

// next waits for one event.
func next(t *testing.T, w api.Watcher) api.WatchEvent {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		require.True(t, ok, "watch closed early")
		return ev
	case <-time.After(20 * time.Second):
		t.Fatal("no watch event")
		return api.WatchEvent{}
	}
}

func TestWatchSeesCreateUpdateDelete(t *testing.T) {
	c, ns := startServer(t)
	cms := client.For[*api.ConfigMap](c).Namespace(ns)
	list, err := cms.List(ctx(t), client.ListOptions{})
	require.NoError(t, err)
	w, err := cms.Watch(ctx(t), client.ListOptions{ResourceVersion: list.ResourceVersion})
	require.NoError(t, err)
	defer w.Stop()

	cm, err := cms.Create(ctx(t), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "w"}}, client.CreateOptions{})
	require.NoError(t, err)
	cm.Data = map[string]string{"k": "v"}
	cm, err = cms.Update(ctx(t), cm, client.UpdateOptions{})
	require.NoError(t, err)
	require.NoError(t, cms.Delete(ctx(t), "w", api.DeleteOptions{}))

	ev := next(t, w)
	assert.Equal(t, api.Added, ev.Type)
	assert.Equal(t, "w", ev.Object.(*api.ConfigMap).Name)
	ev = next(t, w)
	assert.Equal(t, api.Modified, ev.Type)
	assert.Equal(t, cm.ResourceVersion, ev.Object.GetObjectMeta().ResourceVersion)
	assert.Equal(t, "v", ev.Object.(*api.ConfigMap).Data["k"])
	ev = next(t, w)
	assert.Equal(t, api.Deleted, ev.Type)

	w.Stop()
	for range w.ResultChan() {
	}
}

func TestWatchWithTimeoutSecondsEndsCleanly(t *testing.T) {
	c, ns := startServer(t)
	one := int64(1)
	w, err := client.For[*api.Pod](c).Namespace(ns).Watch(ctx(t), client.ListOptions{TimeoutSeconds: &one, AllowWatchBookmarks: true})
	require.NoError(t, err)
	closed := make(chan struct{})
	go func() {
		for range w.ResultChan() {
		}
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(20 * time.Second):
		t.Fatal("watch did not end after timeoutSeconds")
	}
}

func TestWatchFromCompactedVersionIsExpired(t *testing.T) {
	c, ns := startServer(t)
	cms := client.For[*api.ConfigMap](c).Namespace(ns)
	var rv string
	for i := 0; i < 3; i++ {
		cm, err := cms.Create(ctx(t), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c" + strconv.Itoa(i)}}, client.CreateOptions{})
		require.NoError(t, err)
		rv = cm.ResourceVersion
	}
	n, err := strconv.ParseInt(rv, 10, 64)
	require.NoError(t, err)
	_, err = etcd.Client().Compact(ctx(t), n)
	require.NoError(t, err)
	// Watch through an apiserver started after the compaction: the first
	// one's watch cache may still hold every event since revision 1 (it
	// does when this test runs first), and would rightly replay them.
	late, _ := startServer(t)
	w, err := client.For[*api.ConfigMap](late).Namespace(ns).Watch(ctx(t), client.ListOptions{ResourceVersion: "1"})
	if err != nil {
		assert.True(t, api.IsExpired(err), "%v", err)
		return
	}
	defer w.Stop()
	ev := next(t, w)
	require.Equal(t, api.Error, ev.Type)
	st := ev.Object.(*api.Status)
	assert.True(t, api.IsExpired(&api.StatusError{ErrStatus: *st}), "%+v", st)
}

func TestScaleSubresource(t *testing.T) {
	c, ns := startServer(t)
	rss := client.For[*api.ReplicaSet](c).Namespace(ns)
	_, err := rss.Create(ctx(t), replicaSet("web", 2), client.CreateOptions{})
	require.NoError(t, err)

	scale, err := rss.GetScale(ctx(t), "web")
	require.NoError(t, err)
	assert.EqualValues(t, 2, scale.Spec.Replicas)
	assert.Equal(t, "autoscaling/v1", scale.APIVersion)

	scale.Spec.Replicas = 5
	scale, err = rss.UpdateScale(ctx(t), "web", scale, client.UpdateOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 5, scale.Spec.Replicas)
	rs, err := rss.Get(ctx(t), "web", client.GetOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 5, *rs.Spec.Replicas)

	patched, err := rss.Dynamic().Patch(ctx(t), "web", client.MergePatchType, []byte(`{"spec":{"replicas":1}}`), client.PatchOptions{}, "scale")
	require.NoError(t, err)
	require.IsType(t, &api.Scale{}, patched, "a patch of the scale subresource answers a Scale")
	assert.EqualValues(t, 1, patched.(*api.Scale).Spec.Replicas)
	scale, err = rss.GetScale(ctx(t), "web")
	require.NoError(t, err)
	assert.EqualValues(t, 1, scale.Spec.Replicas)

	scale.Spec.Replicas = -1
	_, err = rss.UpdateScale(ctx(t), "web", scale, client.UpdateOptions{})
	assert.True(t, api.IsInvalid(err), "%v", err)
	_, err = rss.GetScale(ctx(t), "missing")
	assert.True(t, api.IsNotFound(err), "%v", err)
}

func TestBindSetsNodeName(t *testing.T) {
	c, ns := startServer(t)
	_, err := client.For[*api.Node](c).Create(ctx(t), &api.Node{ObjectMeta: api.ObjectMeta{Name: ns + "-n1"}}, client.CreateOptions{})
	require.NoError(t, err)
	pods := client.For[*api.Pod](c).Namespace(ns)
	_, err = pods.Create(ctx(t), pod("p", nil), client.CreateOptions{})
	require.NoError(t, err)

	require.NoError(t, pods.Bind(ctx(t), api.NewBinding(ns, "p", ns+"-n1"), client.CreateOptions{}))
	p, err := pods.Get(ctx(t), "p", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, ns+"-n1", p.Spec.NodeName)

	err = pods.Bind(ctx(t), api.NewBinding(ns, "p", ns+"-n1"), client.CreateOptions{})
	assert.True(t, api.IsConflict(err), "binding a bound pod: %v", err)
}

func TestRetryOnConflictWithConcurrentUpdatersLosesNoUpdate(t *testing.T) {
	c, ns := startServer(t)
	cms := client.For[*api.ConfigMap](c).Namespace(ns)
	_, err := cms.Create(ctx(t), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "counter"}, Data: map[string]string{"n": "0"}}, client.CreateOptions{})
	require.NoError(t, err)

	const writers = 20
	var conflicts atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	// Twenty writers colliding need more than DefaultRetry's five tries.
	backoff := client.Backoff{Steps: 100, Duration: 5 * time.Millisecond, Factor: 1.2, Jitter: 1}
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- client.RetryOnConflict(backoff, func() error {
				cm, err := cms.Get(ctx(t), "counter", client.GetOptions{})
				if err != nil {
					return err
				}
				n, _ := strconv.Atoi(cm.Data["n"])
				cm.Data["n"] = strconv.Itoa(n + 1)
				_, err = cms.Update(ctx(t), cm, client.UpdateOptions{})
				if api.IsConflict(err) {
					conflicts.Add(1)
				}
				return err
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	cm, err := cms.Get(ctx(t), "counter", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(writers), cm.Data["n"], "every increment landed exactly once")
	t.Logf("conflicts retried: %d", conflicts.Load())
}

func TestDynamicClientServesAnyKind(t *testing.T) {
	c, ns := startServer(t)
	info, ok := api.Builtin().ForResource("", "configmaps")
	require.True(t, ok)
	dyn := c.Dynamic(info)
	obj := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "d", Namespace: ns}}
	created, err := dyn.Create(ctx(t), obj, client.CreateOptions{})
	require.NoError(t, err, "an all-namespaces view writes into the object's namespace")
	assert.Equal(t, ns, created.GetObjectMeta().Namespace)

	list, err := client.NewListWatch(c, info, ns).List(ctx(t), client.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list.GetItems(), 1)
	assert.Equal(t, "d", list.GetItems()[0].GetObjectMeta().Name)
	assert.NotEmpty(t, list.GetListMeta().ResourceVersion)
}

func TestDiscovery(t *testing.T) {
	c, _ := startServer(t)
	v, err := c.ServerVersion(ctx(t))
	require.NoError(t, err)
	assert.NotEmpty(t, v.GitVersion)

	lists, err := c.ServerResources(ctx(t))
	require.NoError(t, err)
	found := map[string]bool{}
	for _, l := range lists {
		for _, r := range l.Resources {
			found[l.GroupVersion+"/"+r.Name] = true
		}
	}
	for _, want := range []string{"v1/pods", "v1/pods/binding", "apps/v1/replicasets", "apps/v1/replicasets/scale", "coordination.k8s.io/v1/leases"} {
		assert.True(t, found[want], want)
	}
}

func TestRealServerErrorsAreTyped(t *testing.T) {
	c, ns := startServer(t)
	rss := client.For[*api.ReplicaSet](c).Namespace(ns)
	_, err := rss.Get(ctx(t), "nope", client.GetOptions{})
	require.True(t, api.IsNotFound(err), "%v", err)
	assert.Equal(t, `replicasets.apps "nope" not found`, err.Error())

	_, err = rss.Create(ctx(t), replicaSet("bad", -1), client.CreateOptions{})
	assert.True(t, api.IsInvalid(err), "%v", err)

	_, err = client.For[*api.Pod](c).Namespace(ns+"-missing").Create(ctx(t), pod("p", nil), client.CreateOptions{})
	assert.True(t, api.IsNotFound(err), "create in a missing namespace: %v", err)
}

func TestWatchListStreamsInitialEventsThenBookmark(t *testing.T) {
	c, ns := startServer(t)
	cms := client.For[*api.ConfigMap](c).Namespace(ns)
	for i := 0; i < 3; i++ {
		_, err := cms.Create(ctx(t), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c" + strconv.Itoa(i)}}, client.CreateOptions{})
		require.NoError(t, err)
	}
	yes := true
	w, err := cms.Watch(ctx(t), client.ListOptions{
		SendInitialEvents: &yes, ResourceVersionMatch: client.ResourceVersionMatchNotOlderThan, AllowWatchBookmarks: true,
	})
	require.NoError(t, err)
	defer w.Stop()
	names := map[string]bool{}
	for {
		ev := next(t, w)
		if ev.Type == api.Bookmark {
			bm, ok := ev.Object.(*api.ConfigMap)
			require.True(t, ok, "a bookmark decodes as the watched kind, got %T", ev.Object)
			if bm.Annotations[api.InitialEventsAnnotation] == "true" {
				assert.NotEmpty(t, bm.ResourceVersion)
				break
			}
			continue
		}
		require.Equal(t, api.Added, ev.Type)
		names[ev.Object.GetObjectMeta().Name] = true
	}
	assert.Equal(t, map[string]bool{"c0": true, "c1": true, "c2": true}, names)

	// sendInitialEvents on a plain LIST is rejected, and the client says so
	// with the server's reason (the reflector falls back on it).
	_, err = cms.Watch(ctx(t), client.ListOptions{SendInitialEvents: &yes})
	assert.True(t, api.IsInvalid(err), "sendInitialEvents without NotOlderThan: %v", err)
}

func TestThrottledClientStopsAtTheBurst(t *testing.T) {
	c, ns := startServer(t)
	// A second client on the same server: a burst of 10, then one token
	// every 1000 s. The eleventh request cannot get a token before its
	// deadline; rate.Limiter says so at once, so nothing here is timed.
	throttled, err := client.NewForConfig(&client.Config{Host: c.Host(), QPS: 0.001, Burst: 10})
	require.NoError(t, err)
	cms := client.For[*api.ConfigMap](throttled).Namespace(ns)
	for i := 0; i < 10; i++ {
		_, err := cms.Create(ctx(t), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "q" + strconv.Itoa(i)}}, client.CreateOptions{})
		require.NoError(t, err)
	}
	_, err = cms.Create(ctx(t), &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "q10"}}, client.CreateOptions{})
	require.ErrorContains(t, err, "rate limiter")

	// The unthrottled client sees exactly the ten that got through.
	list, err := client.For[*api.ConfigMap](c).Namespace(ns).List(ctx(t), client.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, list.Items, 10)
}
