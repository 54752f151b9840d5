package informer_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver"
	"kubeloop/client"
	"kubeloop/deltafifo"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/store"
	"kubeloop/store/storetest"
)

// restartableAPIServer serves a kubeloop apiserver on a fixed address over
// one etcd, and can be stopped and started again on the same address, which
// drops every watch the way a real apiserver restart does.
type restartableAPIServer struct {
	t    *testing.T
	etcd *store.Embedded
	addr string

	cancel context.CancelFunc
	done   chan error
	srv    *apiserver.Server
}

func (r *restartableAPIServer) start() {
	srv, err := apiserver.New(apiserver.Config{Etcd: r.etcd.Client(), Logger: slog.New(slog.DiscardHandler)})
	require.NoError(r.t, err)
	var ln net.Listener
	require.Eventually(r.t, func() bool {
		ln, err = net.Listen("tcp", r.addr)
		return err == nil
	}, 10*time.Second, 20*time.Millisecond, "listen %s", r.addr)
	r.addr = ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel, r.srv, r.done = cancel, srv, make(chan error, 1)
	go func() { r.done <- srv.Serve(ctx, ln) }()
}

func (r *restartableAPIServer) stop() {
	r.cancel()
	<-r.done
	r.srv.Close()
}

func podInNS(ns, name string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"gen": "0"}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "busybox"}}},
	}
}

// rvChecker is a handler that fails the test if any object's
// resourceVersion, as seen by handlers, ever goes backwards.
type rvChecker struct {
	mu      sync.Mutex
	last    map[string]int64
	backErr error
}

func (c *rvChecker) see(obj any) {
	if t, ok := obj.(deltafifo.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	o, ok := obj.(api.Object)
	if !ok {
		return
	}
	key, _ := api.MetaNamespaceKeyFunc(o)
	rv, _ := strconv.ParseInt(o.GetObjectMeta().ResourceVersion, 10, 64)
	c.mu.Lock()
	defer c.mu.Unlock()
	if rv < c.last[key] && c.backErr == nil {
		c.backErr = fmt.Errorf("%s went back from resourceVersion %d to %d", key, c.last[key], rv)
	}
	c.last[key] = rv
}

func (c *rvChecker) OnAdd(o any, _ bool) { c.see(o) }
func (c *rvChecker) OnUpdate(_, o any)   { c.see(o) }
func (c *rvChecker) OnDelete(o any)      { c.see(o) }
func (c *rvChecker) err() error          { c.mu.Lock(); defer c.mu.Unlock(); return c.backErr }

func TestInformerStaysEqualToListThroughDropsRestartsAndCompaction(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test")
	}
	etcd := storetest.StartEtcd(t)
	srv := &restartableAPIServer{t: t, etcd: etcd, addr: "127.0.0.1:0"}
	srv.start()
	defer func() { srv.stop() }()

	cfg := &client.Config{Host: "http://" + srv.addr}
	c, err := client.NewForConfig(cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()

	const ns, initial = "default", 5000
	pods := client.For[*api.Pod](c).Namespace(ns)
	var wg sync.WaitGroup
	var created atomic.Int64
	for w := 0; w < 32; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < initial; i += 32 {
				_, err := pods.Create(ctx, podInNS(ns, fmt.Sprintf("p%05d", i)), client.CreateOptions{})
				if err == nil {
					created.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	require.EqualValues(t, initial, created.Load())

	factory := informers.NewClientInformerFactory(c, 0, nil)
	inf := informers.For[*api.Pod](factory)
	checker := &rvChecker{last: map[string]int64{}}
	_, err = inf.AddEventHandler(checker)
	require.NoError(t, err)
	informerCtx, stopInformer := context.WithCancel(ctx)
	defer stopInformer()
	factory.Start(informerCtx)
	require.True(t, informer.WaitForCacheSync(ctx, inf.HasSynced))
	// The initial list is served by the watch cache at resourceVersion 0
	// ("any"), which may be a moment behind the last creates, as in
	// Kubernetes: the rest arrive as watch events.
	require.Eventually(t, func() bool { return len(inf.GetIndexer().ListKeys()) == initial }, time.Minute, 10*time.Millisecond,
		"the informer never held all %d pods", initial)

	// Ten writers churn: relabel, delete and recreate pods, tolerating the
	// errors a restarting apiserver gives.
	churnCtx, stopChurn := context.WithCancel(ctx)
	for w := 0; w < 10; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for churnCtx.Err() == nil {
				name := fmt.Sprintf("p%05d", r.IntN(initial))
				switch r.IntN(3) {
				case 0:
					_ = pods.Delete(churnCtx, name, api.DeleteOptions{})
				case 1:
					_, _ = pods.Create(churnCtx, podInNS(ns, name), client.CreateOptions{})
				default:
					patch := []byte(`{"metadata":{"labels":{"gen":"` + strconv.Itoa(r.IntN(1000)) + `"}}}`)
					_, _ = pods.Patch(churnCtx, name, client.MergePatchType, patch, client.PatchOptions{})
				}
			}
		}()
	}

	// After a restart the reflector has failed several times while the
	// server was down, so it legitimately sleeps up to twice its 30 s
	// backoff cap (client-go's jitter) before re-listing 5000 pods: the
	// deadline covers that plus a slow relist on a loaded machine.
	waitForProgress := func() {
		before := inf.LastSyncResourceVersion()
		start := time.Now()
		require.Eventually(t, func() bool { return inf.LastSyncResourceVersion() != before }, 90*time.Second, 20*time.Millisecond)
		t.Logf("informer progressed after %v", time.Since(start))
	}
	waitForProgress()

	// 1. An apiserver restart over the same etcd drops every watch.
	srv.stop()
	srv.start()
	waitForProgress()

	// 2. A compaction followed by a restart: the new watch cache starts at
	// the current revision, so resuming from the informer's older version
	// is a 410 and the reflector must re-list.
	resp, err := etcd.Client().Get(ctx, "/registry/")
	require.NoError(t, err)
	require.NoError(t, store.Compact(ctx, etcd.Client(), resp.Header.Revision))
	srv.stop()
	srv.start()
	waitForProgress()

	stopChurn()
	wg.Wait()

	// Settled: the cache must equal a fresh LIST, object for object. The
	// LIST is taken again each time: a write the churn cancelled may still
	// commit after the churn stopped, and then after one LIST.
	require.Eventually(t, func() bool {
		list, err := pods.List(ctx, client.ListOptions{})
		if err != nil {
			return false
		}
		want := map[string]string{}
		for _, p := range list.Items {
			want[ns+"/"+p.Name] = p.ResourceVersion
		}
		got := map[string]string{}
		for _, o := range inf.GetIndexer().List() {
			p := o.(*api.Pod)
			got[ns+"/"+p.Name] = p.ResourceVersion
		}
		return mapsEqual(want, got)
	}, 60*time.Second, 250*time.Millisecond, "the cache never converged to the LIST")
	require.NoError(t, checker.err())
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
