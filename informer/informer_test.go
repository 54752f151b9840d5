package informer

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/cache"
	"kubeloop/deltafifo"
)

// memLW is a tiny in-memory ListerWatcher: Set and Remove change its state
// and feed the open watch, so informer logic can be tested without a server.
// (Tests against the real apiserver live in integration_test.go.)
type memLW struct {
	mu      sync.Mutex
	rv      int
	objs    map[string]*api.ConfigMap
	watches []chan api.WatchEvent
}

func newMemLW() *memLW { return &memLW{objs: map[string]*api.ConfigMap{}} }

func (m *memLW) List(context.Context, api.ListOptions) (api.ListObject, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := &api.ConfigMapList{}
	l.ResourceVersion = strconv.Itoa(m.rv)
	for _, o := range m.objs {
		l.Items = append(l.Items, *o)
	}
	return l, nil
}

// Watch serves a watch-list too (informers ask for one): with
// sendInitialEvents, the stream starts with an ADDED event per object and
// the bookmark that ends the initial events.
func (m *memLW) Watch(ctx context.Context, opts api.ListOptions) (api.Watcher, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ch := make(chan api.WatchEvent, 1000+len(m.objs))
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		for _, o := range m.objs {
			ch <- api.WatchEvent{Type: api.Added, Object: o}
		}
		end := &api.ConfigMap{ObjectMeta: api.ObjectMeta{ResourceVersion: strconv.Itoa(m.rv),
			Annotations: map[string]string{api.InitialEventsAnnotation: "true"}}}
		ch <- api.WatchEvent{Type: api.Bookmark, Object: end}
	}
	m.watches = append(m.watches, ch)
	return &memWatcher{ch: ch}, nil
}

type memWatcher struct{ ch chan api.WatchEvent }

func (w *memWatcher) ResultChan() <-chan api.WatchEvent { return w.ch }
func (w *memWatcher) Stop()                             {}

func (m *memLW) Set(name, value string) *api.ConfigMap {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rv++
	_, existed := m.objs[name]
	o := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: strconv.Itoa(m.rv)},
		Data: map[string]string{"v": value}}
	m.objs[name] = o
	t := api.Added
	if existed {
		t = api.Modified
	}
	for _, w := range m.watches {
		w <- api.WatchEvent{Type: t, Object: o}
	}
	return o
}

// RemoveSilently deletes without telling watchers, as if the watch was down.
func (m *memLW) RemoveSilently(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rv++
	delete(m.objs, name)
}

// BreakWatches ends every open watch with a 410, forcing a re-list.
func (m *memLW) BreakWatches() {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := api.NewResourceExpired("too old").Status()
	for _, w := range m.watches {
		w <- api.WatchEvent{Type: api.Error, Object: &s}
		close(w)
	}
	m.watches = nil
}

// recorder is a handler that logs calls.
type recorder struct {
	mu    sync.Mutex
	calls []string
	objs  []any
}

func (r *recorder) add(s string, o any) {
	r.mu.Lock()
	r.calls = append(r.calls, s)
	r.objs = append(r.objs, o)
	r.mu.Unlock()
}
func (r *recorder) OnAdd(o any, initial bool) {
	r.add("add:"+o.(*api.ConfigMap).Name+":"+strconv.FormatBool(initial), o)
}
func (r *recorder) OnUpdate(old, new any) {
	same := old == new
	r.add("update:"+new.(*api.ConfigMap).Name+":same="+strconv.FormatBool(same), new)
}
func (r *recorder) OnDelete(o any) {
	switch t := o.(type) {
	case deltafifo.DeletedFinalStateUnknown:
		r.add("delete-tombstone:"+t.Key, o)
	case *api.ConfigMap:
		r.add("delete:"+t.Name, o)
	}
}
func (r *recorder) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

func start(t *testing.T, inf SharedIndexInformer) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go inf.Run(ctx)
	require.True(t, WaitForCacheSync(ctx, inf.HasSynced))
}

func TestLateHandlerReceivesExistingObjectsFirst(t *testing.T) {
	lw := newMemLW()
	lw.Set("a", "1")
	lw.Set("b", "1")
	inf := NewSharedIndexInformer("configmaps", lw, Options{})
	start(t, inf)

	r := &recorder{}
	reg, err := inf.AddEventHandler(r)
	require.NoError(t, err)
	require.Eventually(t, reg.HasSynced, 10*time.Second, 5*time.Millisecond)
	require.ElementsMatch(t, []string{"add:a:true", "add:b:true"}, r.snapshot())

	lw.Set("c", "1")
	require.Eventually(t, func() bool { return len(r.snapshot()) == 3 }, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, "add:c:false", r.snapshot()[2])
}

func TestResyncDeliversUpdateWithSameObject(t *testing.T) {
	lw := newMemLW()
	lw.Set("a", "1")
	inf := NewSharedIndexInformer("configmaps", lw, Options{})
	r := &recorder{}
	_, err := inf.AddEventHandlerWithResyncPeriod(r, time.Second)
	require.NoError(t, err)
	start(t, inf)
	require.Eventually(t, func() bool {
		for _, c := range r.snapshot() {
			if c == "update:a:same=true" {
				return true
			}
		}
		return false
	}, 15*time.Second, 10*time.Millisecond)
}

func TestHandlerWithoutResyncGetsNoResyncUpdates(t *testing.T) {
	lw := newMemLW()
	lw.Set("a", "1")
	inf := NewSharedIndexInformer("configmaps", lw, Options{})
	syncing, quiet := &recorder{}, &recorder{}
	_, _ = inf.AddEventHandlerWithResyncPeriod(syncing, time.Second)
	_, _ = inf.AddEventHandlerWithResyncPeriod(quiet, 0)
	start(t, inf)
	require.Eventually(t, func() bool { return len(syncing.snapshot()) >= 2 }, 15*time.Second, 10*time.Millisecond)
	// A live change after the resync reaches both, so the quiet handler's
	// log is complete up to it: it must hold no resync update.
	lw.Set("a", "2")
	require.Eventually(t, func() bool { return len(quiet.snapshot()) == 2 }, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, []string{"add:a:true", "update:a:same=false"}, quiet.snapshot())
}

func TestDeleteWhileWatchDownReachesOnDeleteAsTombstone(t *testing.T) {
	lw := newMemLW()
	lw.Set("a", "1")
	lw.Set("b", "1")
	inf := NewSharedIndexInformer("configmaps", lw, Options{})
	r := &recorder{}
	_, _ = inf.AddEventHandler(r)
	start(t, inf)

	lw.RemoveSilently("a")
	lw.BreakWatches()
	require.Eventually(t, func() bool {
		for _, c := range r.snapshot() {
			if c == "delete-tombstone:ns/a" {
				return true
			}
		}
		return false
	}, 15*time.Second, 10*time.Millisecond)
	_, exists, _ := inf.GetIndexer().GetByKey("ns/a")
	require.False(t, exists)
}

func TestIndexerByIndexAndAddIndexersAfterStart(t *testing.T) {
	lw := newMemLW()
	lw.Set("a", "x")
	lw.Set("b", "y")
	inf := NewSharedIndexInformer("configmaps", lw, Options{})
	start(t, inf)
	require.NoError(t, inf.AddIndexers(cache.Indexers{"byValue": func(o any) ([]string, error) {
		return []string{o.(*api.ConfigMap).Data["v"]}, nil
	}}))
	got, err := inf.GetIndexer().ByIndex("byValue", "y")
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, "b", got[0].(*api.ConfigMap).Name)

	lw.Set("a", "y")
	require.Eventually(t, func() bool {
		keys, _ := inf.GetIndexer().IndexKeys("byValue", "y")
		return len(keys) == 2
	}, 10*time.Second, 5*time.Millisecond)
	keys, _ := inf.GetIndexer().IndexKeys("byValue", "x")
	require.Empty(t, keys, "an update moves the key out of its old index value")
}

func TestMutationDetectorNamesObjectAndField(t *testing.T) {
	d := NewMutationDetector("configmaps")
	var report string
	d.Fail = func(r string) { report = r }
	o := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "a"}, Data: map[string]string{"k": "v"}}
	d.AddObject(o)
	d.CompareObjects()
	require.Empty(t, report, "an untouched object is not reported")

	o.Data["k"] = "changed"
	d.CompareObjects()
	require.Contains(t, report, `"ns/a"`)
	require.Contains(t, report, "data.k")
}

func TestMutationDetectorCatchesHandlerEditingCachedObject(t *testing.T) {
	t.Setenv("KUBELOOP_CACHE_MUTATION_DETECTOR", "true")
	lw := newMemLW()
	lw.Set("a", "1")
	inf := NewSharedIndexInformer("configmaps", lw, Options{}).(*sharedIndexInformer)
	var report string
	inf.detector.Fail = func(r string) { report = r }
	// The test compares by hand once the handler is done, so the periodic
	// check must not run concurrently with the (deliberately bad) handler.
	inf.detector.CheckPeriod = time.Hour
	edited := make(chan struct{})
	_, _ = inf.AddEventHandler(ResourceEventHandlerFuncs{AddFunc: func(o any, _ bool) {
		o.(*api.ConfigMap).Labels = map[string]string{"bad": "handler"}
		close(edited)
	}})
	start(t, inf)
	<-edited
	inf.detector.CompareObjects()
	require.Contains(t, report, `"ns/a"`)
	require.Contains(t, report, "metadata.labels")
}

// Options.Transform rewrites what is cached and what handlers get, on the
// first list, on watch events and on a relist.
func TestTransformAppliesToListWatchAndRelist(t *testing.T) {
	lw := newMemLW()
	lw.Set("a", "1")
	// memLW's objects are its state: the transform returns a copy.
	upper := func(obj any) (any, error) {
		cm := obj.(*api.ConfigMap).DeepCopy()
		cm.Data["v"] = "seen-" + strings.TrimPrefix(cm.Data["v"], "seen-")
		return cm, nil
	}
	inf := NewSharedIndexInformer("configmaps", lw, Options{Transform: upper})
	r := &recorder{}
	_, err := inf.AddEventHandler(r)
	require.NoError(t, err)
	start(t, inf)

	cached := func(name string) string {
		o, ok, err := inf.GetIndexer().GetByKey("ns/" + name)
		if err != nil || !ok {
			return ""
		}
		return o.(*api.ConfigMap).Data["v"]
	}
	require.Equal(t, "seen-1", cached("a"), "the first list")
	lw.Set("b", "2")
	require.Eventually(t, func() bool { return cached("b") == "seen-2" }, 10*time.Second, 5*time.Millisecond, "a watch event")
	lw.BreakWatches()
	lw.Set("c", "3")
	require.Eventually(t, func() bool { return cached("c") == "seen-3" }, 10*time.Second, 5*time.Millisecond, "the relist")
	require.Equal(t, "seen-1", cached("a"), "idempotent: a relisted object is not transformed twice over")
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, o := range r.objs {
		require.True(t, strings.HasPrefix(o.(*api.ConfigMap).Data["v"], "seen-"), "handlers get the transformed object")
	}
}
