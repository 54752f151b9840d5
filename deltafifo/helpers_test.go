package deltafifo

import (
	"sort"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// cm builds a small ConfigMap; rv tells versions of one key apart.
func cm(namespace, name, rv string) *api.ConfigMap {
	return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: namespace, Name: name, ResourceVersion: rv}}
}

// knownIndex stands in for the informer's indexer: an in-memory map the
// consumer updates as it pops. Only its key listing and lookup matter here.
type knownIndex struct {
	mu   sync.Mutex
	objs map[string]any
}

func newKnownIndex(objs ...*api.ConfigMap) *knownIndex {
	k := &knownIndex{objs: map[string]any{}}
	for _, o := range objs {
		k.set(o)
	}
	return k
}

func (k *knownIndex) set(obj any) {
	key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		panic(err)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.objs[key] = obj
}

func (k *knownIndex) remove(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.objs, key)
}

// apply does what an informer's handler does with popped deltas.
func (k *knownIndex) apply(d Deltas) {
	for _, delta := range d {
		if delta.Type == Deleted {
			key, err := DeletionHandlingMetaNamespaceKeyFunc(delta.Object)
			if err != nil {
				panic(err)
			}
			k.remove(key)
			continue
		}
		k.set(delta.Object)
	}
}

func (k *knownIndex) ListKeys() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	keys := make([]string, 0, len(k.objs))
	for key := range k.objs {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

func (k *knownIndex) GetByKey(key string) (any, bool, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	obj, ok := k.objs[key]
	return obj, ok, nil
}

// popDeltas pops one key, failing the test if Pop errs.
func popDeltas(t testing.TB, f *DeltaFIFO) Deltas {
	t.Helper()
	obj, err := f.Pop(func(any, bool) error { return nil })
	require.NoError(t, err)
	return obj.(Deltas)
}

// shape is a Deltas reduced to what the tests compare: type and
// resourceVersion per delta, with tombstones shown as "tomb:<rv or nil>".
func shape(d Deltas) []string {
	out := make([]string, 0, len(d))
	for _, delta := range d {
		out = append(out, string(delta.Type)+" "+describe(delta.Object))
	}
	return out
}

func describe(obj any) string {
	switch o := obj.(type) {
	case nil:
		return "nil"
	case *api.ConfigMap:
		return o.ResourceVersion
	case DeletedFinalStateUnknown:
		return "tomb:" + describe(o.Obj)
	default:
		return "?"
	}
}
