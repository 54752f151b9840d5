package namespace

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"

	"kubeloop/api"
	"kubeloop/client"
)

// namespacedResourcesDeleter deletes everything in a terminating
// namespace, resource by resource, and then removes its finalizer token.
// Kubernetes: pkg/controller/namespace/deletion/
// namespaced_resources_deleter.go, namespacedResourcesDeleter.
type namespacedResourcesDeleter struct {
	client     *client.Client
	namespaces *client.Resource[*api.Namespace]
	discover   func(ctx context.Context) ([]*client.APIResourceList, error)
	// finalizerToken is the spec.finalizers entry this deleter owns.
	finalizerToken api.FinalizerName
	// opCache remembers the verbs a resource does not serve.
	opCache *operationNotSupportedCache
	log     *slog.Logger
}

func newNamespacedResourcesDeleter(c *client.Client, discover func(ctx context.Context) ([]*client.APIResourceList, error),
	token api.FinalizerName, log *slog.Logger) *namespacedResourcesDeleter {
	return &namespacedResourcesDeleter{
		client: c, namespaces: client.For[*api.Namespace](c), discover: discover,
		finalizerToken: token, opCache: newOperationNotSupportedCache(), log: log,
	}
}

// ResourcesRemainingError says the content is being deleted but is not
// all gone: pods may still be in their grace period, or objects wait for
// their finalizers. Estimate is how many seconds it may take.
type ResourcesRemainingError struct {
	Estimate int64
}

func (e *ResourcesRemainingError) Error() string {
	return fmt.Sprintf("some content remains in the namespace, estimate %d seconds before it is removed", e.Estimate)
}

// finalizerEstimateSeconds is the guess for objects that wait on
// finalizers: the garbage collector usually needs about that long.
const finalizerEstimateSeconds int64 = 15

// Delete makes one pass over a namespace: nothing if it is not being
// deleted or is already finalized; otherwise make sure it says
// Terminating, delete its content, and once none is left remove our
// finalizer token. A *ResourcesRemainingError asks to be called again.
// Kubernetes: namespacedResourcesDeleter.Delete.
func (d *namespacedResourcesDeleter) Delete(ctx context.Context, name string) error {
	// Read live: several controllers may write a terminating namespace.
	ns, err := d.namespaces.Get(ctx, name, client.GetOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if ns.DeletionTimestamp == nil {
		return nil
	}
	ns, err = d.retryOnConflict(ctx, ns, d.updateNamespaceStatus)
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if ns.DeletionTimestamp == nil || len(ns.Spec.Finalizers) == 0 {
		return nil
	}
	estimate, err := d.deleteAllContent(ctx, ns)
	if err != nil {
		return err
	}
	if estimate > 0 {
		return &ResourcesRemainingError{Estimate: estimate}
	}
	_, err = d.retryOnConflict(ctx, ns, d.finalizeNamespace)
	if api.IsNotFound(err) {
		// Another controller with our token finished first.
		return nil
	}
	return err
}

// retryOnConflict runs fn, re-reading the namespace after each conflict,
// and gives up if the namespace was replaced by another of the same name.
func (d *namespacedResourcesDeleter) retryOnConflict(ctx context.Context, ns *api.Namespace,
	fn func(context.Context, *api.Namespace) (*api.Namespace, error)) (*api.Namespace, error) {
	latest := ns
	for {
		out, err := fn(ctx, latest)
		if err == nil || !api.IsConflict(err) {
			return out, err
		}
		prev := latest
		if latest, err = d.namespaces.Get(ctx, ns.Name, client.GetOptions{}); err != nil {
			return nil, err
		}
		if latest.UID != prev.UID {
			return nil, errors.New("namespace uid has changed across retries")
		}
	}
}

// updateNamespaceStatus sets phase Terminating if the apiserver has not.
func (d *namespacedResourcesDeleter) updateNamespaceStatus(ctx context.Context, ns *api.Namespace) (*api.Namespace, error) {
	if ns.DeletionTimestamp == nil || ns.Status.Phase == api.NamespaceTerminating {
		return ns, nil
	}
	updated := ns.DeepCopy()
	updated.Status.Phase = api.NamespaceTerminating
	return d.namespaces.UpdateStatus(ctx, updated, client.UpdateOptions{})
}

// finalizeNamespace removes our token from spec.finalizers through the
// finalize subresource; the apiserver removes the namespace if nothing
// else holds it. The rest is kept as a sorted set, as Kubernetes does.
func (d *namespacedResourcesDeleter) finalizeNamespace(ctx context.Context, ns *api.Namespace) (*api.Namespace, error) {
	finalize := &api.Namespace{ObjectMeta: *ns.ObjectMeta.DeepCopy()}
	keep := map[api.FinalizerName]bool{}
	for _, f := range ns.Spec.Finalizers {
		if f != d.finalizerToken {
			keep[f] = true
		}
	}
	finalize.Spec.Finalizers = make([]api.FinalizerName, 0, len(keep))
	for f := range keep {
		finalize.Spec.Finalizers = append(finalize.Spec.Finalizers, f)
	}
	sort.Slice(finalize.Spec.Finalizers, func(i, j int) bool { return finalize.Spec.Finalizers[i] < finalize.Spec.Finalizers[j] })
	out, err := d.namespaces.Finalize(ctx, finalize, client.UpdateOptions{})
	if err == nil {
		d.log.Info("finalized", "namespace", ns.Name, "finalizersLeft", len(finalize.Spec.Finalizers))
	}
	return out, err
}
