//go:build !solution

package finalizer

import (
	"context"
	"fmt"

	"kubeloop/api"
)

// This is your file. Write syncConfigMap and removeFinalizer; keep the
// signatures.
// Run the grader with: go test -tags exercise ./exercises/10-finalizers/

// syncConfigMap reconciles one source ConfigMap (key is "namespace/name"),
// read from c.cmLister (gone: nothing to do):
//
//   - Being deleted (DeletionTimestamp set), or no longer labelled
//     CopyToLabel: if it carries FinalizerName, delete its copies
//     (c.deleteCopies) and then, once that succeeded, remove the finalizer
//     (removeFinalizer). Never the other way round: a source without the
//     finalizer may vanish at once, and its copies with nobody to delete
//     them.
//   - Otherwise: if it does not carry FinalizerName yet, add it (an Update
//     of a DeepCopy) before anything else; then make the copy
//     (c.ensureCopy) with the object the Update returned.
//
// Return errors: the key is retried, and a 409 Conflict heals with a
// fresher read.
func (c *Controller) syncConfigMap(ctx context.Context, key string) error {
	// TODO
	return fmt.Errorf("syncConfigMap %q: %w", key, ErrNotImplemented)
}

// removeFinalizer writes cm without FinalizerName, keeping every other
// finalizer exactly as it is: the garbage collector's foregroundDeletion,
// another controller's. Work on a DeepCopy, and Update (with cm's
// resourceVersion, so that a concurrent change is a conflict, not lost).
func (c *Controller) removeFinalizer(ctx context.Context, cm *api.ConfigMap) error {
	// TODO
	return ErrNotImplemented
}
