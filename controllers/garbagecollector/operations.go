package garbagecollector

import (
	"context"
	"encoding/json"
	"fmt"

	"kubeloop/api"
	"kubeloop/client"
)

// The collector's API calls. Every decision is re-checked against a live
// GET, never the cache alone: the cache may lag, and deleting an object is
// not something to get wrong. Kubernetes: operations.go and patch.go.

// resolve finds the kind of a reference and the namespace its object lives
// in ("" for a cluster-scoped kind).
func (gc *Controller) resolve(id objectReference) (*api.ResourceInfo, string, error) {
	info, ok := gc.registry.ForKind(id.group(), id.Kind)
	if !ok {
		info, ok = gc.custom.kindFor(id.group(), id.Kind)
	}
	if !ok {
		return nil, "", fmt.Errorf("garbage collector: unknown kind %s in %s", id.Kind, id.APIVersion)
	}
	if !info.Namespaced {
		return info, "", nil
	}
	return info, id.Namespace, nil
}

func (gc *Controller) resource(id objectReference) (*client.DynamicResource, error) {
	info, ns, err := gc.resolve(id)
	if err != nil {
		return nil, err
	}
	return gc.client.Dynamic(info).Namespace(ns), nil
}

// getObject reads the object of id by name. The caller compares UIDs: a
// same-named object with another UID is a different object.
func (gc *Controller) getObject(ctx context.Context, id objectReference) (api.Object, error) {
	r, err := gc.resource(id)
	if err != nil {
		return nil, err
	}
	return r.Get(ctx, id.Name, client.GetOptions{})
}

// deleteObject deletes the object of id if it is still the version we
// decided on: same UID, same resourceVersion (so no owner was added since).
func (gc *Controller) deleteObject(ctx context.Context, id objectReference, resourceVersion string, policy api.DeletionPropagation) error {
	r, err := gc.resource(id)
	if err != nil {
		return err
	}
	uid := id.UID
	opts := api.DeleteOptions{
		PropagationPolicy: &policy,
		Preconditions:     &api.Preconditions{UID: &uid, ResourceVersion: &resourceVersion},
	}
	if err := r.Delete(ctx, id.Name, opts); err != nil {
		return err
	}
	gc.log.Info("deleted", "object", id, "propagationPolicy", policy)
	return nil
}

// metadataPatch is a JSON merge patch of metadata. resourceVersion makes it
// a compare-and-swap; a nil list is sent as null, which removes the field.
type metadataPatch struct {
	Metadata struct {
		ResourceVersion string                `json:"resourceVersion"`
		OwnerReferences *[]api.OwnerReference `json:"ownerReferences,omitempty"`
		Finalizers      *[]string             `json:"finalizers,omitempty"`
	} `json:"metadata"`
}

// patchLatest reads the object of id and, if change returns a patch, applies
// it at the resourceVersion it read; on a conflict it reads again. An object
// that is gone, or replaced by another UID, needs no patch. It reports
// whether a patch was applied.
func (gc *Controller) patchLatest(ctx context.Context, id objectReference, change func(api.Object) *metadataPatch) (bool, error) {
	r, err := gc.resource(id)
	if err != nil {
		return false, err
	}
	patched := false
	err = client.RetryOnConflict(client.DefaultRetry, func() error {
		patched = false
		latest, err := r.Get(ctx, id.Name, client.GetOptions{})
		if api.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if latest.GetObjectMeta().UID != id.UID {
			return nil
		}
		p := change(latest)
		if p == nil {
			return nil
		}
		p.Metadata.ResourceVersion = latest.GetObjectMeta().ResourceVersion
		body, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("garbage collector: encode patch: %w", err)
		}
		_, err = r.Patch(ctx, id.Name, client.MergePatchType, body, client.PatchOptions{})
		if api.IsNotFound(err) {
			return nil
		}
		patched = err == nil
		return err
	})
	return patched, err
}

// removeOwnerReferences drops the references to ownerUIDs from the object
// of id, keeping every other reference.
func (gc *Controller) removeOwnerReferences(ctx context.Context, id objectReference, ownerUIDs ...string) error {
	drop := map[string]bool{}
	for _, u := range ownerUIDs {
		drop[u] = true
	}
	patched, err := gc.patchLatest(ctx, id, func(latest api.Object) *metadataPatch {
		var keep []api.OwnerReference
		for _, ref := range latest.GetObjectMeta().OwnerReferences {
			if !drop[ref.UID] {
				keep = append(keep, ref)
			}
		}
		if len(keep) == len(latest.GetObjectMeta().OwnerReferences) {
			return nil
		}
		p := &metadataPatch{}
		p.Metadata.OwnerReferences = &keep
		return p
	})
	if err != nil {
		return fmt.Errorf("remove owner references %v from %s: %w", ownerUIDs, id, err)
	}
	if patched {
		gc.log.Info("removed owner references", "object", id, "owners", ownerUIDs)
	}
	return nil
}

// removeFinalizer takes one finalizer off the object of id; if it was the
// last one of an object being deleted, the apiserver then removes it.
func (gc *Controller) removeFinalizer(ctx context.Context, id objectReference, finalizer string) error {
	patched, err := gc.patchLatest(ctx, id, func(latest api.Object) *metadataPatch {
		m := latest.GetObjectMeta()
		if !hasFinalizer(m, finalizer) {
			return nil
		}
		var keep []string
		for _, f := range m.Finalizers {
			if f != finalizer {
				keep = append(keep, f)
			}
		}
		p := &metadataPatch{}
		p.Metadata.Finalizers = &keep
		return p
	})
	if err != nil {
		return fmt.Errorf("remove finalizer %s from %s: %w", finalizer, id, err)
	}
	if patched {
		gc.log.Info("removed finalizer", "object", id, "finalizer", finalizer)
	}
	return nil
}
