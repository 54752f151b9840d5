package garbagecollector

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"kubeloop/api"
)

// attemptToOrphanWorker carries out an orphan deletion: every dependent
// loses its reference to the owner, and only then does the owner lose its
// orphan finalizer (after which the apiserver removes it). If anything
// fails, the owner is retried whole; both steps are idempotent.
func (gc *Controller) attemptToOrphanWorker(ctx context.Context, owner *node) error {
	gb := gc.dependencyGraphBuilder
	id := gb.identity(owner)
	if err := gc.orphanDependents(ctx, id, gb.dependents(owner)); err != nil {
		return err
	}
	return gc.removeFinalizer(ctx, id, api.FinalizerOrphanDependents)
}

// orphanDependents removes the reference to owner from each dependent, in
// parallel as Kubernetes does: an owner may have many.
func (gc *Controller) orphanDependents(ctx context.Context, owner objectReference, dependents []*node) error {
	gb := gc.dependencyGraphBuilder
	errs := make([]error, len(dependents))
	var wg sync.WaitGroup
	for i, d := range dependents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = gc.removeOwnerReferences(ctx, gb.identity(d), owner.UID)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("orphan dependents of %s: %w", owner, err)
	}
	return nil
}
