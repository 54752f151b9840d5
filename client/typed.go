package client

import (
	"context"
	"fmt"

	"kubeloop/api"
)

// Resource is a typed client for the kind whose Go type is T (a pointer type
// such as *api.Pod). It converts to and from the DynamicResource it wraps,
// so the HTTP logic exists once. client-go generates one such client per kind
// (typed/core/v1/pod.go); Go generics let one type serve them all.
type Resource[T api.Object] struct {
	dyn *DynamicResource
}

// ListResult is one page of a typed list.
type ListResult[T api.Object] struct {
	api.ListMeta
	Items []T
}

// For returns the typed client for T. It panics if T is not a registered
// kind: that is a programming error, like naming a type that does not exist.
//
//	pods := client.For[*api.Pod](c).Namespace("default")
func For[T api.Object](c *Client) *Resource[T] {
	info, ok := api.ForType[T](c.registry)
	if !ok {
		var zero T
		panic(fmt.Sprintf("client.For: type %T is not a registered kind", zero))
	}
	return &Resource[T]{dyn: c.Dynamic(info)}
}

// Namespace returns a view limited to ns.
func (r *Resource[T]) Namespace(ns string) *Resource[T] {
	return &Resource[T]{dyn: r.dyn.Namespace(ns)}
}

// Dynamic returns the untyped client underneath.
func (r *Resource[T]) Dynamic() *DynamicResource { return r.dyn }

// typed converts what the dynamic client decoded, which is a T (the dynamic
// client decodes into info.New(), the registered type of T) except for a
// patch of the scale subresource, which answers a Scale.
func typed[T api.Object](obj api.Object, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	t, ok := obj.(T)
	if !ok {
		return zero, fmt.Errorf("client: the request was done, but its answer is a %T, not a %T: patch the scale subresource with Dynamic().Patch", obj, zero)
	}
	return t, nil
}

// Get reads one object.
func (r *Resource[T]) Get(ctx context.Context, name string, opts GetOptions) (T, error) {
	return typed[T](r.dyn.Get(ctx, name, opts))
}

// List reads one page.
func (r *Resource[T]) List(ctx context.Context, opts ListOptions) (*ListResult[T], error) {
	list, err := r.dyn.List(ctx, opts)
	if err != nil {
		return nil, err
	}
	items := list.GetItems()
	out := &ListResult[T]{ListMeta: *list.GetListMeta(), Items: make([]T, len(items))}
	for i, o := range items {
		out.Items[i] = o.(T)
	}
	return out, nil
}

// ListAll follows continue tokens and returns every item and the list's
// resourceVersion.
func (r *Resource[T]) ListAll(ctx context.Context, opts ListOptions) ([]T, string, error) {
	objs, rv, err := r.dyn.ListAll(ctx, opts)
	if err != nil {
		return nil, "", err
	}
	out := make([]T, len(objs))
	for i, o := range objs {
		out[i] = o.(T)
	}
	return out, rv, nil
}

// Watch starts a watch; event objects are T (or *api.Status for ERROR).
func (r *Resource[T]) Watch(ctx context.Context, opts ListOptions) (api.Watcher, error) {
	return r.dyn.Watch(ctx, opts)
}

// Create posts obj.
func (r *Resource[T]) Create(ctx context.Context, obj T, opts CreateOptions) (T, error) {
	return typed[T](r.dyn.Create(ctx, obj, opts))
}

// Update replaces obj (compare-and-swap on its resourceVersion, if set).
func (r *Resource[T]) Update(ctx context.Context, obj T, opts UpdateOptions) (T, error) {
	return typed[T](r.dyn.Update(ctx, obj, opts))
}

// UpdateStatus replaces obj's status.
func (r *Resource[T]) UpdateStatus(ctx context.Context, obj T, opts UpdateOptions) (T, error) {
	return typed[T](r.dyn.UpdateStatus(ctx, obj, opts))
}

// Patch patches the object or one of its subresources other than scale,
// whose answer is a Scale (use Dynamic().Patch for it).
func (r *Resource[T]) Patch(ctx context.Context, name string, pt PatchType, data []byte, opts PatchOptions, subresources ...string) (T, error) {
	return typed[T](r.dyn.Patch(ctx, name, pt, data, opts, subresources...))
}

// Delete deletes one object.
func (r *Resource[T]) Delete(ctx context.Context, name string, opts api.DeleteOptions) error {
	return r.dyn.Delete(ctx, name, opts)
}

// DeleteCollection deletes every object matching listOpts.
func (r *Resource[T]) DeleteCollection(ctx context.Context, opts api.DeleteOptions, listOpts ListOptions) error {
	return r.dyn.DeleteCollection(ctx, opts, listOpts)
}

// GetScale reads the scale subresource (replicasets, deployments).
func (r *Resource[T]) GetScale(ctx context.Context, name string) (*api.Scale, error) {
	return r.dyn.GetScale(ctx, name)
}

// UpdateScale writes the scale subresource.
func (r *Resource[T]) UpdateScale(ctx context.Context, name string, scale *api.Scale, opts UpdateOptions) (*api.Scale, error) {
	return r.dyn.UpdateScale(ctx, name, scale, opts)
}

// Bind assigns a pod to a node (pods only).
func (r *Resource[T]) Bind(ctx context.Context, binding *api.Binding, opts CreateOptions) error {
	return r.dyn.Bind(ctx, binding, opts)
}

// Finalize writes a namespace's spec.finalizers (namespaces only).
func (r *Resource[T]) Finalize(ctx context.Context, ns *api.Namespace, opts UpdateOptions) (*api.Namespace, error) {
	return r.dyn.Finalize(ctx, ns, opts)
}
