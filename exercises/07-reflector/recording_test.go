//go:build exercise || solution

package listwatch

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"kubeloop/api"
	"kubeloop/cache"
)

// The two recorders around your reflector: the watch it reads (forwarder,
// which the harness can end early) and the store it writes (recordingStore,
// kubeloop's informer indexer with a log of every call).

// forwarder passes a real watch's events on and can close the stream
// early.
type forwarder struct {
	inner api.Watcher
	out   chan api.WatchEvent
	stop  chan struct{}
	once  sync.Once
}

func newForwarder(inner api.Watcher) *forwarder {
	f := &forwarder{inner: inner, out: make(chan api.WatchEvent), stop: make(chan struct{})}
	go func() {
		defer close(f.out)
		defer inner.Stop()
		for {
			select {
			case <-f.stop:
				return
			case ev, ok := <-inner.ResultChan():
				if !ok {
					return
				}
				select {
				case f.out <- ev:
				case <-f.stop:
					return
				}
			}
		}
	}()
	return f
}

func (f *forwarder) ResultChan() <-chan api.WatchEvent { return f.out }
func (f *forwarder) Stop()                             { f.end() }
func (f *forwarder) end()                              { f.once.Do(func() { close(f.stop) }) }

type chanWatcher struct{ ch chan api.WatchEvent }

func (w *chanWatcher) ResultChan() <-chan api.WatchEvent { return w.ch }
func (w *chanWatcher) Stop()                             {}

// recordingStore is kubeloop's informer indexer, with a log of what the
// reflector asked of it.
type recordingStore struct {
	indexer cache.Indexer
	mu      sync.Mutex
	ops     []string
}

func (s *recordingStore) log(op string, obj any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ops = append(s.ops, op+" "+describe(obj))
}

func describe(obj any) string {
	if o, ok := obj.(api.Object); ok {
		m := o.GetObjectMeta()
		return m.Name + "@" + m.ResourceVersion
	}
	return fmt.Sprintf("%T", obj)
}

func (s *recordingStore) Add(obj any) error    { s.log("add", obj); return s.indexer.Add(obj) }
func (s *recordingStore) Update(obj any) error { s.log("update", obj); return s.indexer.Update(obj) }
func (s *recordingStore) Delete(obj any) error { s.log("delete", obj); return s.indexer.Delete(obj) }
func (s *recordingStore) Resync() error        { return nil }
func (s *recordingStore) Replace(list []any, rv string) error {
	var names []string
	for _, o := range list {
		names = append(names, describe(o))
	}
	sort.Strings(names)
	s.mu.Lock()
	s.ops = append(s.ops, "replace ["+strings.Join(names, " ")+"] at "+rv)
	s.mu.Unlock()
	return s.indexer.Replace(list, rv)
}

func (s *recordingStore) calls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.ops...)
}

// cached is the store's content as sorted "name@rv".
func (s *recordingStore) cached() []string {
	var out []string
	for _, o := range s.indexer.List() {
		out = append(out, describe(o))
	}
	sort.Strings(out)
	return out
}
