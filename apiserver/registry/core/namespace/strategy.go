package namespace

import (
	"context"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
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

// PrepareForUpdate: a write to the namespace itself keeps the stored
// spec.finalizers (only namespaces/NAME/finalize changes them) and status.
// Kubernetes: namespaceStrategy.PrepareForUpdate.
func (s Strategy) PrepareForUpdate(ctx context.Context, obj, old api.Object) {
	obj.(*api.Namespace).Spec.Finalizers = old.(*api.Namespace).Spec.Finalizers
	s.DefaultStrategy.PrepareForUpdate(ctx, obj, old)
}

// FinalizeStrategy is the update strategy of namespaces/NAME/finalize:
// the body's spec.finalizers and metadata, the stored status. Kubernetes:
// pkg/registry/core/namespace/strategy.go (namespaceFinalizeStrategy).
type FinalizeStrategy struct {
	Info *api.ResourceInfo
}

// PrepareForUpdate keeps the stored status.
func (s FinalizeStrategy) PrepareForUpdate(ctx context.Context, obj, old api.Object) {
	generic.DefaultStrategy{Info: s.Info}.PrepareForUpdate(ctx, obj, old)
}

// ValidateUpdate checks the finalizer names and the metadata rules of an
// update. Kubernetes: ValidateNamespaceFinalizeUpdate.
func (s FinalizeStrategy) ValidateUpdate(_ context.Context, obj, old api.Object) error {
	return admission.ValidateUpdate(s.Info, "finalize", obj, old)
}
