package namespace

import (
	"context"

	"kubeloop/api"
	"kubeloop/apiserver/registry/generic"
)

// Strategy is the namespace strategy: the default strategy plus a new
// namespace's phase and finalizer. Kubernetes:
// pkg/registry/core/namespace/strategy.go (namespaceStrategy).
type Strategy struct {
	generic.DefaultStrategy
}

// NewStrategy is the strategy of the namespaces resource info describes.
func NewStrategy(info *api.ResourceInfo) Strategy {
	return Strategy{generic.DefaultStrategy{Info: info}}
}

// PrepareForCreate: a new namespace is Active and carries the "kubernetes"
// finalizer, which only the namespace finalizer removes, once the namespace
// is empty. Kubernetes: namespaceStrategy.PrepareForCreate.
func (s Strategy) PrepareForCreate(ctx context.Context, obj api.Object) {
	s.DefaultStrategy.PrepareForCreate(ctx, obj)
	ns := obj.(*api.Namespace)
	ns.Status.Phase = api.NamespaceActive
	ns.Spec.Finalizers = []api.FinalizerName{api.FinalizerKubernetes}
}
