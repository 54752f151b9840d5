package api

import (
	"fmt"
	"strings"
)

// KeyFunc turns an object into the key a cache or queue stores it under
// (client-go: cache.KeyFunc). The DeltaFIFO groups deltas by it and the
// informer's Indexer stores objects by it.
type KeyFunc func(obj any) (string, error)

// MetaNamespaceKeyFunc is the key every cache and queue uses for an object:
// "namespace/name", or "name" for cluster-scoped objects. It accepts an Object
// or a string that already is a key.
func MetaNamespaceKeyFunc(obj any) (string, error) {
	switch o := obj.(type) {
	case string:
		return o, nil
	case Object:
		m := o.GetObjectMeta()
		if m.Namespace == "" {
			return m.Name, nil
		}
		return m.Namespace + "/" + m.Name, nil
	default:
		return "", fmt.Errorf("object has no meta: %T", obj)
	}
}

// SplitMetaNamespaceKey is the inverse of MetaNamespaceKeyFunc.
func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {
	parts := strings.Split(key, "/")
	switch len(parts) {
	case 1:
		return "", parts[0], nil
	case 2:
		return parts[0], parts[1], nil
	}
	return "", "", fmt.Errorf("unexpected key format: %q", key)
}
