package listers

import (
	"kubeloop/api"
	"kubeloop/cache"
)

// Lister reads typed objects from an Indexer. What it returns is shared
// with the cache: DeepCopy before changing.
type Lister[T api.Object] struct {
	indexer cache.Indexer
}

// NewLister wraps an indexer.
func NewLister[T api.Object](indexer cache.Indexer) Lister[T] { return Lister[T]{indexer: indexer} }

// List returns every cached object matching selector (nil = all).
func (l Lister[T]) List(selector api.Selector) []T {
	return filter[T](l.indexer.List(), selector)
}

// Get returns a cluster-scoped object by name.
func (l Lister[T]) Get(name string) (T, error) { return l.get(name, name) }

// Namespace narrows the lister to one namespace.
func (l Lister[T]) Namespace(ns string) NamespaceLister[T] {
	return NamespaceLister[T]{indexer: l.indexer, namespace: ns}
}

func (l Lister[T]) get(key, name string) (T, error) {
	var zero T
	obj, ok, err := l.indexer.GetByKey(key)
	if err != nil {
		return zero, err
	}
	if !ok {
		info, _ := api.ForType[T](api.Builtin())
		gr := api.GroupResource{}
		if info != nil {
			gr = info.GroupResource()
		}
		return zero, api.NewNotFound(gr, name)
	}
	return obj.(T), nil
}

// NamespaceLister reads one namespace.
type NamespaceLister[T api.Object] struct {
	indexer   cache.Indexer
	namespace string
}

// List returns the namespace's objects matching selector (nil = all).
func (l NamespaceLister[T]) List(selector api.Selector) []T {
	objs, err := l.indexer.ByIndex(cache.NamespaceIndex, l.namespace)
	if err != nil {
		// Without the namespace index, fall back to a scan.
		var in []any
		for _, o := range l.indexer.List() {
			if o.(api.Object).GetObjectMeta().Namespace == l.namespace {
				in = append(in, o)
			}
		}
		objs = in
	}
	return filter[T](objs, selector)
}

// Get returns one object of the namespace by name.
func (l NamespaceLister[T]) Get(name string) (T, error) {
	return Lister[T]{indexer: l.indexer}.get(l.namespace+"/"+name, name)
}

func filter[T api.Object](objs []any, selector api.Selector) []T {
	out := make([]T, 0, len(objs))
	for _, o := range objs {
		t, ok := o.(T)
		if !ok {
			continue
		}
		if selector != nil && !selector.Matches(t.GetObjectMeta().Labels) {
			continue
		}
		out = append(out, t)
	}
	return out
}
