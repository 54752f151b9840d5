package conformance

import (
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"kubeloop/api"
	"kubeloop/deltafifo"
)

// The DeltaFIFO benchmarks run the same bodies against kubeloop's deltafifo
// and client-go's tools/cache DeltaFIFO through a small adapter. Both queues
// key with their own MetaNamespaceKeyFunc and store their own ConfigMap type,
// and both get the same map-backed known objects, so the rows compare the
// queues and nothing else.

// benchFIFO is the part of a DeltaFIFO the benchmarks drive.
type benchFIFO interface {
	Add(obj any) error
	Replace(list []any, resourceVersion string) error
	pop() error
}

type deltaFIFOImpl struct {
	name      string
	keyFunc   func(obj any) (string, error)
	configMap func(namespace, name string) any
	newFIFO   func(known *benchKnownObjects) benchFIFO
}

type kubeloopDeltaFIFO struct{ *deltafifo.DeltaFIFO }

func (f kubeloopDeltaFIFO) pop() error {
	_, err := f.Pop(func(any, bool) error { return nil })
	return err
}

type clientGoDeltaFIFO struct{ *cache.DeltaFIFO }

func (f clientGoDeltaFIFO) pop() error {
	_, err := f.Pop(func(any, bool) error { return nil })
	return err
}

func deltaFIFOImpls() []deltaFIFOImpl {
	return []deltaFIFOImpl{
		{
			name:    "kubeloop",
			keyFunc: api.MetaNamespaceKeyFunc,
			configMap: func(namespace, name string) any {
				return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: namespace, Name: name, ResourceVersion: "1"}}
			},
			newFIFO: func(known *benchKnownObjects) benchFIFO {
				opts := deltafifo.DeltaFIFOOptions{EmitDeltaTypeReplaced: true}
				if known != nil {
					opts.KnownObjects = known
				}
				return kubeloopDeltaFIFO{deltafifo.NewDeltaFIFOWithOptions(opts)}
			},
		},
		{
			name:    "client-go",
			keyFunc: cache.MetaNamespaceKeyFunc,
			configMap: func(namespace, name string) any {
				return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, ResourceVersion: "1"}}
			},
			newFIFO: func(known *benchKnownObjects) benchFIFO {
				opts := cache.DeltaFIFOOptions{KeyFunction: cache.MetaNamespaceKeyFunc, EmitDeltaTypeReplaced: true}
				if known != nil {
					opts.KnownObjects = known
				}
				return clientGoDeltaFIFO{cache.NewDeltaFIFOWithOptions(opts)}
			},
		},
	}
}

// benchKnownObjects plays the informer's indexer: a fixed map with its key
// list computed once, so neither queue pays for the other's store.
type benchKnownObjects struct {
	keys []string
	objs map[string]any
}

func (k *benchKnownObjects) ListKeys() []string { return k.keys }

func (k *benchKnownObjects) GetByKey(key string) (any, bool, error) {
	obj, ok := k.objs[key]
	return obj, ok, nil
}

func benchConfigMaps(impl deltaFIFOImpl, from, to int) []any {
	objs := make([]any, 0, to-from)
	for i := from; i < to; i++ {
		objs = append(objs, impl.configMap("bench", "cm-"+strconv.Itoa(i)))
	}
	return objs
}

// BenchmarkDeltaFIFOAddPop adds n distinct objects, then pops them all, on
// one long-lived queue as an informer's would be.
func BenchmarkDeltaFIFOAddPop(b *testing.B) {
	const n = 1000
	for _, impl := range deltaFIFOImpls() {
		b.Run(impl.name, func(b *testing.B) {
			objs := benchConfigMaps(impl, 0, n)
			f := impl.newFIFO(nil)
			b.ReportAllocs()
			for b.Loop() {
				for _, obj := range objs {
					if err := f.Add(obj); err != nil {
						b.Fatal(err)
					}
				}
				for range objs {
					if err := f.pop(); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/item")
		})
	}
}

// BenchmarkDeltaFIFOReplace10k is a relist: the consumer knows objects 0..9999,
// the list holds 500..10499. Replace queues 10000 Replaced deltas and 500
// tombstones; then everything is popped.
func BenchmarkDeltaFIFOReplace10k(b *testing.B) {
	const n, churn = 10_000, 500
	for _, impl := range deltaFIFOImpls() {
		b.Run(impl.name, func(b *testing.B) {
			known := &benchKnownObjects{objs: make(map[string]any, n)}
			for _, obj := range benchConfigMaps(impl, 0, n) {
				key, err := impl.keyFunc(obj)
				if err != nil {
					b.Fatal(err)
				}
				known.keys = append(known.keys, key)
				known.objs[key] = obj
			}
			list := benchConfigMaps(impl, churn, n+churn)
			b.ReportAllocs()
			for b.Loop() {
				f := impl.newFIFO(known)
				if err := f.Replace(list, "2"); err != nil {
					b.Fatal(err)
				}
				for range n + churn {
					if err := f.pop(); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
