package client

import (
	"context"
	"fmt"

	"kubeloop/api"
)

// Until reads the object name and calls done with it (nil once it does not
// exist) until done says so, blocking between calls for the next change:
// it watches from the version it read, so no change slips past, and reads
// again on any event or when the stream ends. kubectl-lite's delete --wait
// and scale --wait are built on it.
// client-go: tools/watch/until.go UntilWithSync, which kubectl delete
// --wait and kubectl wait run over a ListWatch of the one name; it keeps
// the object in an informer's cache where Until reads it again.
func (r *DynamicResource) Until(ctx context.Context, name string, done func(api.Object) bool) error {
	for {
		obj, err := r.Get(ctx, name, GetOptions{})
		if api.IsNotFound(err) {
			obj, err = nil, nil
		}
		if err != nil || done(obj) {
			return err
		}
		// Not there yet: a watch from no version starts with what exists
		// by then, so a create between the read and the watch is seen.
		rv := ""
		if obj != nil {
			rv = obj.GetObjectMeta().ResourceVersion
		}
		w, err := r.Watch(ctx, ListOptions{FieldSelector: "metadata.name=" + name, ResourceVersion: rv})
		if err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			w.Stop()
			return fmt.Errorf("stopped waiting for %s %q: %w", r.info.Resource, name, ctx.Err())
		case <-w.ResultChan(): // any event, or the stream's end: read again
		}
		w.Stop()
	}
}
