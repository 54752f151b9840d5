package informers

// Skip on a first reading: a memory saving, not part of how an informer
// works. It saves the managedFields of every cached object (at 1000 nodes
// × 10 pods, `make bench-scale`, cpu-ms/pod 11.2 → 5.3 with the x509 lock
// fix; see docs/performance.md, session 6).

import "kubeloop/api"

// TrimManagedFields is the informer transform of the controller manager,
// the scheduler and the kubelet: it drops metadata.managedFields, which no
// controller reads and which is often a large part of a small object.
// Dropping them from the caches shrinks every cached copy and every copy
// a controller makes (DeepCopy before an update); an update sent back with
// no managedFields keeps the server's (a reset needs an empty list, not
// none). It is idempotent, as a transform must be: a relist passes cached
// objects through again. Objects that are not api.Objects pass unchanged.
// Kubernetes: cmd/kube-controller-manager/app/controllermanager.go,
// CreateControllerContext's trim, and pkg/scheduler/scheduler.go,
// newPodInformer's; Kubernetes' kubelet keeps them, ours trims too (a
// thousand simulated kubelets' copies share one process).
func TrimManagedFields(obj any) (any, error) {
	if o, ok := obj.(api.Object); ok {
		if meta := o.GetObjectMeta(); meta.ManagedFields != nil {
			meta.ManagedFields = nil
		}
	}
	return obj, nil
}
