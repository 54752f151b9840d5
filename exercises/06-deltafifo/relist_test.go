//go:build exercise || solution

package fifo

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/apiservertest"
	"kubeloop/cache"
	"kubeloop/client"
	"kubeloop/deltafifo"
	"kubeloop/reflector"
)

// The second half of the grader puts your queue where it lives: between
// kubeloop's real reflector, listing and watching a real apiserver (with a
// real etcd) over HTTP, and a consumer that does what an informer does with
// popped deltas. Then the watch goes down for a while.

var srv *apiservertest.Server

func TestMain(m *testing.M) {
	apiservertest.Main(m, func(s *apiservertest.Server) { srv = s })
}

const waitFor = 20 * time.Second

// consumer is an informer's half (informer/shared_informer.go:handleDeltas):
// it keeps the indexer, your queue's KnownObjects, equal to what it popped,
// and records what a handler would be told.
type consumer struct {
	indexer cache.Indexer
	mu      sync.Mutex
	events  []string
}

func (c *consumer) process(d Deltas, _ bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, delta := range d {
		if delta.Type == Deleted {
			key, err := deltafifo.DeletionHandlingMetaNamespaceKeyFunc(delta.Object)
			if err != nil {
				return err
			}
			c.events = append(c.events, "OnDelete "+describe(delta.Object))
			old, ok, _ := c.indexer.GetByKey(key)
			if ok {
				if err := c.indexer.Delete(old); err != nil {
					return err
				}
			}
			continue
		}
		obj := delta.Object.(*api.ConfigMap)
		key, _ := api.MetaNamespaceKeyFunc(obj)
		if _, ok, _ := c.indexer.GetByKey(key); ok {
			c.events = append(c.events, "OnUpdate "+describe(obj))
			if err := c.indexer.Update(obj); err != nil {
				return err
			}
		} else {
			c.events = append(c.events, "OnAdd "+describe(obj))
			if err := c.indexer.Add(obj); err != nil {
				return err
			}
		}
	}
	return nil
}

// since returns the events recorded after the first n.
func (c *consumer) since(n int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.events[n:]...)
}

func (c *consumer) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.events)
}

// cached describes the indexer as sorted "name@rv".
func (c *consumer) cached() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, o := range c.indexer.List() {
		out = append(out, describe(o))
	}
	sort.Strings(out)
	return out
}

// serverState is a fresh LIST, as sorted "name@rv". resourceVersion "0"
// is what a new reflector's first LIST asks for (served by the watch
// cache, which trails etcd by a moment).
func serverState(t *testing.T, cms *client.Resource[*api.ConfigMap], rv string) []string {
	t.Helper()
	list, err := cms.List(context.Background(), client.ListOptions{ResourceVersion: rv})
	require.NoError(t, err)
	var out []string
	for _, o := range list.Items {
		out = append(out, o.Name+"@"+o.ResourceVersion)
	}
	sort.Strings(out)
	return out
}

// countingStore is your queue as the reflector's Store, counting the
// relists it was given.
type countingStore struct {
	*DeltaFIFO
	mu       sync.Mutex
	replaces int
}

func (s *countingStore) Replace(list []any, rv string) error {
	err := s.DeltaFIFO.Replace(list, rv)
	s.mu.Lock()
	s.replaces++
	s.mu.Unlock()
	return err
}

// drainedAfter reports whether the reflector has relisted n times and the
// consumer has popped everything queued. Pop hands deltas to the consumer
// under the queue's lock, so once ListKeys is empty they are all applied.
func (s *countingStore) drainedAfter(n int) bool {
	s.mu.Lock()
	replaces := s.replaces
	s.mu.Unlock()
	return replaces >= n && len(s.ListKeys()) == 0
}

// runReflector runs a new kubeloop reflector into s until stop is called,
// as an informer does after a restart.
func runReflector(s *countingStore, lw reflector.ListerWatcher) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	r := reflector.NewReflector("configmaps", lw, s, 0)
	go func() { defer close(done); r.Run(ctx) }()
	return func() { cancel(); <-done }
}

// waitUntil polls cond until it holds, and fails with what() after
// waitFor.
func waitUntil(t *testing.T, cond func() bool, what func() string) {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v: %s", waitFor, what())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestRelistAfterAnOutageTombstonesWhatWasDeletedMeanwhile(t *testing.T) {
	ns := srv.NewNamespace(t)
	cl, err := client.NewForConfig(&client.Config{Host: srv.URL, TLS: client.TLSConfig{
		CAData: srv.CA.CertPEM, CertData: srv.Admin.CertPEM, KeyData: srv.Admin.KeyPEM}})
	require.NoError(t, err)
	cms := client.For[*api.ConfigMap](cl).Namespace(ns)
	ctx := context.Background()
	create := func(name string) *api.ConfigMap {
		out, err := cms.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: name}, Data: map[string]string{"v": "1"}}, client.CreateOptions{})
		require.NoError(t, err)
		return out
	}
	create("a")
	b := create("b")
	create("c")

	c := &consumer{indexer: cache.NewIndexer(deltafifo.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{})}
	f := New(Options{KnownObjects: c.indexer})
	s := &countingStore{DeltaFIFO: f}
	popped := make(chan error, 1)
	go func() {
		for {
			if _, err := f.Pop(c.process); err != nil {
				popped <- err
				return
			}
		}
	}()
	defer func() {
		f.Close()
		assert.ErrorIs(t, <-popped, ErrFIFOClosed)
	}()
	lw := client.NewListWatch(cl, mustInfo(t), ns)
	// A new reflector's LIST asks for resourceVersion 0, which the watch
	// cache serves and which may trail the last writes by a moment: wait
	// until it has them, so that they come in the LIST.
	want := serverState(t, cms, "")
	waitUntil(t, func() bool { return equal(serverState(t, cms, "0"), want) }, func() string { return "the watch cache never caught up" })

	stop := runReflector(s, lw)
	waitUntil(t, func() bool { return s.drainedAfter(1) }, func() string { return "the reflector never listed" })
	require.Equal(t, want, c.cached(), "after the first Replace and its pops, the consumer must hold what the LIST had")
	require.True(t, f.HasSynced(), "everything the first Replace queued was popped: HasSynced")
	stop() // the watch is down: an apiserver restart, a network partition
	before := c.count()

	// Meanwhile, on the server: b is deleted, c changes, d appears.
	require.NoError(t, cms.Delete(ctx, "b", api.DeleteOptions{}))
	cNow, err := cms.Get(ctx, "c", client.GetOptions{})
	require.NoError(t, err)
	cNow.Data["v"] = "2"
	cNew, err := cms.Update(ctx, cNow, client.UpdateOptions{})
	require.NoError(t, err)
	d := create("d")
	want = serverState(t, cms, "")
	// Again: the deletion must show up in the LIST, not as a late watch
	// event.
	waitUntil(t, func() bool { return equal(serverState(t, cms, "0"), want) }, func() string { return "the watch cache never caught up" })

	stop = runReflector(s, lw)
	defer stop()
	waitUntil(t, func() bool { return s.drainedAfter(2) }, func() string { return "the new reflector never listed" })
	require.Equal(t, want, c.cached(), "after the relist and its pops the cache must equal the server (handlers saw %v)", c.since(before))

	got := c.since(before)
	assert.Contains(t, got, "OnDelete tombstone(b@"+b.ResourceVersion+")",
		"b was deleted while nobody watched: its delete handler gets a tombstone with the last state the cache had")
	assert.Contains(t, got, "OnUpdate c@"+cNew.ResourceVersion)
	assert.Contains(t, got, "OnAdd d@"+d.ResourceVersion)
	deletes := 0
	for _, e := range got {
		if strings.HasPrefix(e, "OnDelete") {
			deletes++
		}
	}
	assert.Equal(t, 1, deletes, "one object was deleted: %v", got)

	// The new watch carries on: a deletion it sees is a real one.
	a, err := cms.Get(ctx, "a", client.GetOptions{})
	require.NoError(t, err)
	require.NoError(t, cms.Delete(ctx, "a", api.DeleteOptions{}))
	waitUntil(t, func() bool {
		for _, e := range c.since(before) {
			if strings.HasPrefix(e, "OnDelete a@") {
				return true
			}
		}
		return false
	}, func() string {
		return fmt.Sprintf("the watch's DELETED for a never reached the handlers: %v", c.since(before))
	})
	assert.NotContains(t, c.since(before), fmt.Sprintf("OnDelete tombstone(a@%s)", a.ResourceVersion))
}

func mustInfo(t *testing.T) *api.ResourceInfo {
	t.Helper()
	info, ok := api.ForType[*api.ConfigMap](api.Builtin())
	require.True(t, ok)
	return info
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
