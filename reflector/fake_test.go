package reflector

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"kubeloop/api"
)

// fakeLW is a ListerWatcher over an in-memory history, so reflector tests can
// script exactly what the server answers. It records every request.
type fakeLW struct {
	mu       sync.Mutex
	requests []api.ListOptions
	// listFn and watchFn answer; each test sets what it needs.
	listFn  func(opts api.ListOptions) (api.ListObject, error)
	watchFn func(opts api.ListOptions) (api.Watcher, error)
}

func (f *fakeLW) List(_ context.Context, opts api.ListOptions) (api.ListObject, error) {
	f.mu.Lock()
	f.requests = append(f.requests, opts)
	f.mu.Unlock()
	return f.listFn(opts)
}

func (f *fakeLW) Watch(_ context.Context, opts api.ListOptions) (api.Watcher, error) {
	f.mu.Lock()
	f.requests = append(f.requests, opts)
	f.mu.Unlock()
	return f.watchFn(opts)
}

func (f *fakeLW) recorded() []api.ListOptions {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]api.ListOptions(nil), f.requests...)
}

// chanWatcher is a Watcher the test feeds by hand.
type chanWatcher struct {
	ch   chan api.WatchEvent
	once sync.Once
	done chan struct{}
}

func newChanWatcher(events ...api.WatchEvent) *chanWatcher {
	w := &chanWatcher{ch: make(chan api.WatchEvent, len(events)+16), done: make(chan struct{})}
	for _, e := range events {
		w.ch <- e
	}
	return w
}

func (w *chanWatcher) ResultChan() <-chan api.WatchEvent { return w.ch }
func (w *chanWatcher) Stop()                             { w.once.Do(func() { close(w.done) }) }
func (w *chanWatcher) close()                            { close(w.ch) }

func cm(name string, rv int) *api.ConfigMap {
	return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: strconv.Itoa(rv)}}
}

func cmList(rv int, cont string, items ...*api.ConfigMap) api.ListObject {
	l := &api.ConfigMapList{}
	l.ResourceVersion = strconv.Itoa(rv)
	l.Continue = cont
	for _, c := range items {
		l.Items = append(l.Items, *c)
	}
	return l
}

// recordingStore logs every call in order as "op:name@rv".
type recordingStore struct {
	mu    sync.Mutex
	calls []string
}

func (s *recordingStore) log(op string, obj any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := obj.(api.Object).GetObjectMeta()
	s.calls = append(s.calls, fmt.Sprintf("%s:%s@%s", op, m.Name, m.ResourceVersion))
	return nil
}
func (s *recordingStore) Add(obj any) error    { return s.log("add", obj) }
func (s *recordingStore) Update(obj any) error { return s.log("update", obj) }
func (s *recordingStore) Delete(obj any) error { return s.log("delete", obj) }
func (s *recordingStore) Replace(list []any, rv string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := ""
	for _, o := range list {
		names += o.(api.Object).GetObjectMeta().Name + ","
	}
	s.calls = append(s.calls, fmt.Sprintf("replace:%s@%s", names, rv))
	return nil
}
func (s *recordingStore) Resync() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, "resync")
	return nil
}
func (s *recordingStore) snapshot() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.calls...)
}
