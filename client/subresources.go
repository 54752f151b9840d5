package client

import (
	"context"
	"fmt"
	"net/http"

	"kubeloop/api"
)

// GetScale reads name's scale subresource: an autoscaling/v1 Scale that is a
// view of the parent's replicas and selector.
func (r *DynamicResource) GetScale(ctx context.Context, name string) (*api.Scale, error) {
	res, err := r.client.do(ctx, r.request(http.MethodGet, r.path(r.namespace, name, "scale"), nil))
	if err != nil {
		return nil, err
	}
	scale := &api.Scale{}
	if err := res.into(scale); err != nil {
		return nil, fmt.Errorf("client: decode Scale: %w", err)
	}
	return scale, nil
}

// UpdateScale writes name's scale subresource. A resourceVersion in scale
// makes it a compare-and-swap against the parent.
func (r *DynamicResource) UpdateScale(ctx context.Context, name string, scale *api.Scale, opts UpdateOptions) (*api.Scale, error) {
	out, err := r.write(ctx, http.MethodPut, r.path(r.namespace, name, "scale"), opts.query(),
		scale, "autoscaling/v1", "Scale", func() api.Object { return &api.Scale{} })
	if err != nil {
		return nil, err
	}
	return out.(*api.Scale), nil
}

// Bind posts binding to pods/<binding.Name>/binding: the scheduler's one
// write. The namespace is the view's, or the binding's own.
func (r *DynamicResource) Bind(ctx context.Context, binding *api.Binding, opts CreateOptions) error {
	ns := r.objectNamespace(binding)
	_, err := r.write(ctx, http.MethodPost, r.path(ns, binding.Name, "binding"), opts.query(),
		binding, "v1", "Binding", func() api.Object { return &api.Status{} })
	return err
}

// Finalize writes namespaces/<ns.Name>/finalize: the namespace's
// spec.finalizers as ns has them (namespaces only). The namespace
// controller removes the "kubernetes" finalizer this way once the
// namespace is empty; a resourceVersion in ns makes it a compare-and-swap.
// client-go: NamespaceInterface.Finalize.
func (r *DynamicResource) Finalize(ctx context.Context, ns *api.Namespace, opts UpdateOptions) (*api.Namespace, error) {
	out, err := r.write(ctx, http.MethodPut, r.path("", ns.Name, "finalize"), opts.query(),
		ns, "v1", "Namespace", func() api.Object { return &api.Namespace{} })
	if err != nil {
		return nil, err
	}
	return out.(*api.Namespace), nil
}
