package informer_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/informer"
	"kubeloop/store/storetest"
)

// request is one request the proxy saw: "list", "watch" or "watchlist"
// (a watch with sendInitialEvents=true), the resource, and its query.
type request struct {
	verb, resource string
	query          url.Values
	code           int // the response's status
}

func (r *request) String() string { return r.verb + " " + r.resource + "?" + r.query.Encode() }

// statusRecorder keeps the status a response starts with.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) WriteHeader(code int) { s.code = code; s.ResponseWriter.WriteHeader(code) }
func (s *statusRecorder) Flush()               { s.ResponseWriter.(http.Flusher).Flush() }

// recordingProxy stands between the informers and a real apiserver on
// 127.0.0.1 and records every request. With refuseWatchList it answers a
// watch-list as an apiserver whose WatchList feature gate is off does:
// 422 Invalid, sendInitialEvents forbidden.
type recordingProxy struct {
	refuseWatchList bool

	mu       sync.Mutex
	requests []*request
	held     chan struct{} // while not nil, requests wait until it is closed
}

// holdRequests makes new requests wait until the returned func is called.
func (p *recordingProxy) holdRequests() (release func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	held := make(chan struct{})
	p.held = held
	return func() {
		p.mu.Lock()
		p.held = nil
		p.mu.Unlock()
		close(held)
	}
}

func (p *recordingProxy) handler(target *url.URL) http.Handler {
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.FlushInterval = -1 // pass watch events on as they come
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		req := &request{verb: "list", resource: path.Base(r.URL.Path), query: q}
		if q.Get("watch") == "true" || q.Get("watch") == "1" {
			req.verb = "watch"
			if q.Get("sendInitialEvents") == "true" {
				req.verb = "watchlist"
			}
		}
		if r.Method != http.MethodGet {
			req.verb = r.Method
		}
		p.mu.Lock()
		p.requests = append(p.requests, req)
		held := p.held
		p.mu.Unlock()
		if held != nil {
			select {
			case <-held:
			case <-r.Context().Done():
				return
			}
		}
		if req.verb == "watchlist" && p.refuseWatchList {
			s := api.NewInvalid("", "ListOptions", "", []api.StatusCause{{Type: api.CauseTypeFieldValueForbidden,
				Field: "sendInitialEvents", Message: "Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"}}).Status()
			s.APIVersion, s.Kind = "v1", "Status"
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnprocessableEntity)
			_ = json.NewEncoder(w).Encode(s)
			return
		}
		rec := &statusRecorder{ResponseWriter: w, code: http.StatusOK}
		rp.ServeHTTP(rec, r)
		p.mu.Lock()
		req.code = rec.code
		p.mu.Unlock()
	})
}

// of returns the verbs of the GET requests for resource, in order.
func (p *recordingProxy) of(resource string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var verbs []string
	for _, r := range p.requests {
		if r.resource == resource && r.verb != http.MethodPost {
			verbs = append(verbs, r.verb)
		}
	}
	return verbs
}

// forget drops what was recorded so far (the test's own setup).
func (p *recordingProxy) forget() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests = nil
}

func (p *recordingProxy) count(verb string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, r := range p.requests {
		if r.verb == verb {
			n++
		}
	}
	return n
}

// startProxiedAPIServer starts an apiserver over a fresh etcd and a
// recording proxy in front of it; the client talks to the proxy.
func startProxiedAPIServer(t *testing.T, p *recordingProxy) (*client.Client, *restartableAPIServer) {
	srv := &restartableAPIServer{t: t, etcd: storetest.StartEtcd(t), addr: "127.0.0.1:0"}
	srv.start()
	target, err := url.Parse("http://" + srv.addr)
	require.NoError(t, err)
	ts := httptest.NewServer(p.handler(target))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		srv.stop()
	})
	c, err := client.NewForConfig(&client.Config{Host: ts.URL})
	require.NoError(t, err)
	return c, srv
}

func podOnNode(ns, name, node, app string) *api.Pod {
	p := podInNS(ns, name)
	p.Labels["app"] = app
	p.Spec.NodeName = node
	return p
}

// createInWL creates the namespace wl and then the given pods in it, and
// startWatchListTest skips in -short mode, starts an apiserver behind p,
// and gives the test's requests a context of two minutes.
func startWatchListTest(t *testing.T, p *recordingProxy) (context.Context, *client.Client, *restartableAPIServer) {
	if testing.Short() {
		t.Skip("integration test")
	}
	c, srv := startProxiedAPIServer(t, p)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx, c, srv
}

// returns the client for its pods.
func createInWL(ctx context.Context, t *testing.T, c *client.Client, ps ...*api.Pod) *client.Resource[*api.Pod] {
	t.Helper()
	_, err := client.For[*api.Namespace](c).Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "wl"}}, client.CreateOptions{})
	require.NoError(t, err)
	pods := client.For[*api.Pod](c).Namespace("wl")
	for _, p := range ps {
		_, err := pods.Create(ctx, p, client.CreateOptions{})
		require.NoError(t, err)
	}
	return pods
}

// runInformer starts an informer over lw and waits until it has synced.
func runInformer(ctx context.Context, t *testing.T, name string, lw *client.ListWatch) informer.SharedIndexInformer {
	t.Helper()
	inf := informer.NewSharedIndexInformer(name, lw, informer.Options{})
	go inf.Run(ctx)
	syncCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	require.True(t, informer.WaitForCacheSync(syncCtx, inf.HasSynced), "%s informer did not sync", name)
	return inf
}

func names(inf informer.SharedIndexInformer) []string {
	var out []string
	for _, o := range inf.GetIndexer().List() {
		out = append(out, o.(api.Object).GetObjectMeta().Name)
	}
	slices.Sort(out)
	return out
}

func TestInformersSyncThroughWatchListAndNeverList(t *testing.T) {
	p := &recordingProxy{}
	ctx, c, _ := startWatchListTest(t, p)

	pods := createInWL(ctx, t, c, podOnNode("wl", "a", "n1", "web"), podOnNode("wl", "b", "n1", "db"), podOnNode("wl", "c", "n2", "web"))
	crd := &api.CustomResourceDefinition{Spec: api.CustomResourceDefinitionSpec{
		Group: "wl.example.com", Scope: api.NamespaceScoped,
		Names: api.CustomResourceDefinitionNames{Plural: "gadgets", Kind: "Gadget"},
		Versions: []api.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
			Schema: &api.CustomResourceValidation{OpenAPIV3Schema: &api.JSONSchemaProps{Type: "object", XPreserveUnknownFields: new(true)}}}},
	}}
	crd.Name = "gadgets.wl.example.com"
	_, err := client.For[*api.CustomResourceDefinition](c).Create(ctx, crd, client.CreateOptions{})
	require.NoError(t, err)
	var gadgets *api.ResourceInfo
	require.Eventually(t, func() bool {
		gadgets, err = c.DiscoverResource(ctx, "wl.example.com", "v1", "gadgets")
		return err == nil
	}, time.Minute, 20*time.Millisecond)
	g := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "wl.example.com/v1", Kind: "Gadget"}, Content: map[string]any{}}
	g.Name = "g1"
	require.Eventually(t, func() bool { // the CRD's storage may lag its discovery
		_, err = c.Dynamic(gadgets).Namespace("wl").Create(ctx, g, client.CreateOptions{})
		return err == nil
	}, time.Minute, 20*time.Millisecond)

	p.forget() // count only the informers' requests, not the setup's

	// Every stored kind, as the components and kubectl's informers watch
	// them: cluster-wide, each its own informer. Events are served from etcd
	// (they have no watch cache), the others from their watch cache.
	var watched []string
	for _, info := range api.Builtin().All() {
		if info.Verbs != nil && !slices.Contains(info.Verbs, "watch") {
			continue
		}
		runInformer(ctx, t, info.Resource, client.NewListWatch(c, info, ""))
		watched = append(watched, info.Resource)
	}
	require.Subset(t, watched, []string{"pods", "nodes", "events", "leases", "customresourcedefinitions"})
	podInfo, ok := api.ForType[*api.Pod](api.Builtin())
	require.True(t, ok)
	all := runInformer(ctx, t, "pods-all", client.NewListWatch(c, podInfo, ""))
	require.Equal(t, []string{"a", "b", "c"}, names(all))
	// The kubelet's view: its node's pods only (spec.nodeName), here narrowed
	// by a label too; the server filters the initial events.
	mine := client.NewListWatch(c, podInfo, "")
	mine.TweakListOptions = func(o *client.ListOptions) { o.FieldSelector, o.LabelSelector = "spec.nodeName=n1", "app=web" }
	n1 := runInformer(ctx, t, "pods-n1", mine)
	require.Equal(t, []string{"a"}, names(n1))
	// A custom resource through the dynamic client.
	require.Equal(t, []string{"g1"}, names(runInformer(ctx, t, "gadgets", client.NewListWatch(c, gadgets, ""))))

	require.Zero(t, p.count("list"), "informers listed: %v", p.requests)
	require.Equal(t, len(watched)+3, p.count("watchlist"), "one watch-list per informer")
	require.Zero(t, p.count("watch"), "no plain watch: each stream stays open after its initial events")

	// After the initial events the same stream carries the changes, still
	// filtered: e (another node) comes before f in the stream, so once f is
	// in, e would be too had the filter let it through.
	for _, pod := range []*api.Pod{podOnNode("wl", "d", "n1", "web"), podOnNode("wl", "e", "n2", "web"), podOnNode("wl", "f", "n1", "web")} {
		_, err := pods.Create(ctx, pod, client.CreateOptions{})
		require.NoError(t, err)
	}
	require.Eventually(t, func() bool { return slices.Contains(names(n1), "f") }, time.Minute, 10*time.Millisecond)
	require.Equal(t, []string{"a", "d", "f"}, names(n1))
	require.Eventually(t, func() bool { return len(names(all)) == 6 }, time.Minute, 10*time.Millisecond)
	require.Zero(t, p.count("list"))
}

func TestInformerFallsBackToListWhenWatchListIsRefused(t *testing.T) {
	p := &recordingProxy{refuseWatchList: true}
	ctx, c, _ := startWatchListTest(t, p)
	pods := createInWL(ctx, t, c, podOnNode("wl", "a", "n1", "web"))
	podInfo, ok := api.ForType[*api.Pod](api.Builtin())
	require.True(t, ok)
	inf := runInformer(ctx, t, "pods", client.NewListWatch(c, podInfo, ""))
	require.Equal(t, []string{"a"}, names(inf))
	// The refused stream, then client-go's classic path: LIST, then a WATCH
	// from the list's version, which carries the changes.
	_, err := pods.Create(ctx, podOnNode("wl", "b", "n1", "web"), client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(names(inf)) == 2 }, time.Minute, 10*time.Millisecond)
	require.Equal(t, []string{"watchlist", "list", "watch"}, p.of("pods"))
}

func TestInformerRelistsThroughWatchListAfterA410(t *testing.T) {
	p := &recordingProxy{}
	ctx, c, srv := startWatchListTest(t, p)
	pods := createInWL(ctx, t, c, podOnNode("wl", "a", "n1", "web"))
	podInfo, ok := api.ForType[*api.Pod](api.Builtin())
	require.True(t, ok)
	inf := runInformer(ctx, t, "pods", client.NewListWatch(c, podInfo, ""))
	// An event on the stream, so that its end reads as a normal end (a
	// stream that ends with none within a second is a failure, backed off).
	_, err := pods.Create(ctx, podOnNode("wl", "b", "n1", "web"), client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(names(inf)) == 2 }, time.Minute, 10*time.Millisecond)
	before := inf.LastSyncResourceVersion()

	// Restart the apiserver while the informer's next request waits in the
	// proxy, and move etcd on meanwhile: the new watch cache begins after
	// the informer's version, so resuming the watch there gets a 410.
	p.forget()
	release := p.holdRequests()
	srv.stop()
	_, err = srv.etcd.Client().Put(ctx, "/unrelated", "x")
	require.NoError(t, err)
	srv.start()
	require.Eventually(t, func() bool { return len(p.of("pods")) > 0 }, time.Minute, 10*time.Millisecond,
		"the informer resumes its watch once the stream ends")
	release()
	_, err = pods.Create(ctx, podOnNode("wl", "c", "n1", "web"), client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(names(inf)) == 3 }, time.Minute, 10*time.Millisecond)
	require.NotEqual(t, before, inf.LastSyncResourceVersion())
	require.Equal(t, []string{"watch", "watchlist"}, p.of("pods"), "the resume got 410, then the state came again as a stream")
	p.mu.Lock()
	resume := *p.requests[slices.IndexFunc(p.requests, func(r *request) bool { return r.verb == "watch" })]
	p.mu.Unlock()
	require.Equal(t, http.StatusGone, resume.code, "the resumed watch at %s", resume.query.Get("resourceVersion"))
}
